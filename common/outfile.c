/*
 * outfile.c - the one commit path for output files: decide how PATH is
 * written (replaced through a temporary file, or in place for a device or
 * FIFO, or refused), create the temporary file exclusively, write, fsync,
 * rename. Owns naming, creating, tracking (common/tmpfiles.c, so a SIGINT or
 * SIGTERM removes it) and removing temporary files; knows no file format.
 *
 * Why each rule:
 *  - The temporary file is created with O_CREAT|O_EXCL|O_NOFOLLOW under a
 *    name of this run's own: an existing path (a planted PATH.tmp symlink,
 *    another run's file) is never opened, so nothing is written through it,
 *    and two runs given the same output do not share a temporary file.
 *  - It lies in PATH's folder, so the rename is atomic (one file system).
 *  - A character device or FIFO is what the user asked to write to
 *    (/dev/null to discard, a pipe or terminal to read it at once):
 *    renaming over it would replace the device with a file, so it is
 *    written in place; an error midway cannot be taken back there.
 *  - A symbolic link is refused unless it leads to a device or FIFO
 *    (/dev/stdout): renaming over it would replace the link, and resolving
 *    it would let whoever can plant a link in a shared folder aim the run
 *    (as root, at any file). The file's own path does the same job safely.
 *  - "-", /dev/stdout and /dev/stderr name this process's own streams, whatever
 *    they lead to (`--csv /dev/stdout > file`): written in place through a
 *    duplicate of descriptor 1 or 2, never by opening the link, so a shell's
 *    redirection (truncating or appending) is what decides, as for any
 *    program's output.
 *  - A folder, a block device or a socket is never an output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "outfile.h"
#include "text.h"
#include "tmpfiles.h"

struct trapeze_outfile {
    char *path;       /* the target as given */
    char *tmp;        /* the temporary file; NULL when written in place */
    int fd;           /* -1 once closed */
    FILE *stream;     /* on fd, when asked for */
    int slot;         /* in the tmpfiles registry, or -1 */
    int keep_fd;      /* commit leaves fd open for the caller */
    int finished;
};

typedef enum { OUT_REPLACE, OUT_IN_PLACE, OUT_STD } out_mode;

/* The descriptor "-", /dev/stdout or /dev/stderr names, else -1. "-" is
 * standard output, as for any Unix tool, never a file of that name. */
static int std_fd(const char *path)
{
    return !strcmp(path, "-") || !strcmp(path, "/dev/stdout") ? 1
           : !strcmp(path, "/dev/stderr")                    ? 2
                                                              : -1;
}

static int is_stream_node(mode_t m)
{
    return S_ISCHR(m) || S_ISFIFO(m);
}

/* How PATH is written, from what it is now (lstat: a link is seen as one). */
static trapeze_status classify(const char *path, out_mode *mode, trapeze_error *err)
{
    struct stat st;
    *mode = OUT_REPLACE;
    if (std_fd(path) >= 0) {
        if (fstat(std_fd(path), &st) != 0)
            return trapeze_fail(err, TRAPEZE_EIO, "%s: not open: %s", path, strerror(errno));
        *mode = OUT_STD;
        return TRAPEZE_OK;
    }
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? TRAPEZE_OK
                               : trapeze_fail(err, TRAPEZE_EIO, "%s: cannot write: %s", path,
                                              strerror(errno));
    if (S_ISLNK(st.st_mode)) {
        struct stat to;
        if (stat(path, &to) == 0 && is_stream_node(to.st_mode)) {
            *mode = OUT_IN_PLACE;
            return TRAPEZE_OK;
        }
        return trapeze_fail(err, TRAPEZE_EIO, "%s: is a symbolic link; an output is not "
                            "written through a link (give the path of the file itself)", path);
    }
    if (S_ISREG(st.st_mode))
        return TRAPEZE_OK;
    if (is_stream_node(st.st_mode)) {
        *mode = OUT_IN_PLACE;
        return TRAPEZE_OK;
    }
    if (S_ISDIR(st.st_mode))
        return trapeze_fail(err, TRAPEZE_EIO, "%s: is a folder (expected a file name)", path);
    return trapeze_fail(err, TRAPEZE_EIO, "%s: is a %s, not an output file", path,
                        S_ISBLK(st.st_mode) ? "block device" : "socket");
}

/* A name no other run (nor this one) is using: PATH.XXXXXX.tmp, the six
 * letters drawn from the pid, the clock and a counter; O_EXCL is what makes
 * it ours, the drawing only makes a clash unlikely. */
static int create_tmp(const char *path, char *tmp, size_t room)
{
    static atomic_uint counter;
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15u ^ (uint64_t)now.tv_nsec ^
                     ((uint64_t)atomic_fetch_add(&counter, 1) << 40);
        x ^= x >> 31; /* splitmix64's finish, so that near seeds give far names */
        x *= 0xbf58476d1ce4e5b9u;
        x ^= x >> 27;
        char suffix[7];
        for (int i = 0; i < 6; i++, x /= 36)
            suffix[i] = letters[x % 36];
        suffix[6] = '\0';
        if ((size_t)snprintf(tmp, room, "%s.%s.tmp", path, suffix) >= room) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

static void free_out(trapeze_outfile *o)
{
    free(o->path);
    free(o->tmp);
    free(o);
}

/* Our own stdout or stderr: a duplicate, so that closing it leaves the
 * stream the rest of the program prints to. */
static trapeze_status open_std(trapeze_outfile *o, trapeze_error *err)
{
    fflush(std_fd(o->path) == 1 ? stdout : stderr);   /* what was printed comes first */
    o->fd = fcntl(std_fd(o->path), F_DUPFD_CLOEXEC, 3);
    return o->fd >= 0 ? TRAPEZE_OK
                      : trapeze_fail(err, TRAPEZE_EIO, "%s: cannot write: %s", o->path,
                                     strerror(errno));
}

static trapeze_status open_in_place(trapeze_outfile *o, trapeze_error *err)
{
    /* no O_TRUNC: a device has nothing to cut, and if the node changed since
     * it was looked at, nothing of a file is destroyed before fstat says so */
    o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (o->fd < 0)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s", o->path, strerror(errno));
    struct stat st;
    if (fstat(o->fd, &st) != 0 || !is_stream_node(st.st_mode)) {
        close(o->fd);
        o->fd = -1;
        return trapeze_fail(err, TRAPEZE_EIO, "%s: changed while being opened; not written",
                            o->path);
    }
    return TRAPEZE_OK;
}

static trapeze_status open_tmp(trapeze_outfile *o, trapeze_error *err)
{
    size_t room = strlen(o->path) + 16;
    if (!(o->tmp = malloc(room)))
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", o->path);
    o->fd = create_tmp(o->path, o->tmp, room);
    if (o->fd < 0)
        return trapeze_fail(err, TRAPEZE_EIO, "%s: cannot create a temporary file beside it: %s",
                            o->path, strerror(errno));
    o->slot = trapeze_tmp_track(o->tmp);
    return TRAPEZE_OK;
}

trapeze_status trapeze_outfile_open(const char *path, trapeze_outfile **out,
                                    trapeze_error *err)
{
    *out = NULL;
    out_mode mode;
    trapeze_status s = classify(path, &mode, err);
    if (s)
        return s;
    trapeze_outfile *o = calloc(1, sizeof *o);
    if (!o || !(o->path = trapeze_strdup(path))) {
        free(o);
        return trapeze_fail(err, TRAPEZE_ENOMEM, "%s: out of memory", path);
    }
    o->fd = -1;
    o->slot = -1;
    s = mode == OUT_IN_PLACE ? open_in_place(o, err)
        : mode == OUT_STD    ? open_std(o, err)
                             : open_tmp(o, err);
    if (s) {
        free_out(o);
        return s;
    }
    *out = o;
    return TRAPEZE_OK;
}

trapeze_status trapeze_outfile_check(const char *path, trapeze_error *err)
{
    out_mode mode;
    trapeze_status s = classify(path, &mode, err);
    if (s)
        return s;
    if (mode == OUT_STD)
        return TRAPEZE_OK;
    if (mode == OUT_IN_PLACE)   /* not opened: a FIFO would wait for its reader */
        return access(path, W_OK) == 0 ? TRAPEZE_OK
                                       : trapeze_fail(err, TRAPEZE_EIO, "%s: cannot open: %s",
                                                      path, strerror(errno));
    trapeze_outfile *o;
    if ((s = trapeze_outfile_open(path, &o, err)))
        return s;
    trapeze_outfile_abort(o);
    return TRAPEZE_OK;
}

FILE *trapeze_outfile_stream(trapeze_outfile *o)
{
    if (!o->stream && o->fd >= 0)
        o->stream = fdopen(o->fd, "w");
    return o->stream;
}

trapeze_status trapeze_outfile_open_stream(const char *path, trapeze_outfile **out, FILE **f,
                                           trapeze_error *err)
{
    *f = NULL;
    trapeze_status s = trapeze_outfile_open(path, out, err);
    if (s)
        return s;
    if (!(*f = trapeze_outfile_stream(*out))) {
        s = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot write: %s", path, strerror(errno));
        trapeze_outfile_abort(*out);
        *out = NULL;
    }
    return s;
}

int trapeze_outfile_fd(const trapeze_outfile *o)
{
    return o->fd;
}

void trapeze_outfile_keep_fd(trapeze_outfile *o)
{
    o->keep_fd = 1;
}

/* Closes fd (and the stream on it) unless the caller keeps it. */
static int close_out(trapeze_outfile *o)
{
    int bad = 0;
    if (o->stream)
        bad = fclose(o->stream) != 0;
    else if (o->fd >= 0 && !o->keep_fd)
        bad = close(o->fd) != 0;
    o->stream = NULL;
    if (!o->keep_fd)
        o->fd = -1;
    return bad;
}

trapeze_status trapeze_outfile_finish(trapeze_outfile *o, int write_errno, trapeze_error *err)
{
    if (o->finished)
        return TRAPEZE_OK;
    o->finished = 1;
    int e = write_errno;
    errno = 0;
    if (!e && o->stream && (ferror(o->stream) || fflush(o->stream) != 0))
        e = errno ? errno : EIO;
    /* a device or FIFO has nothing to sync (EINVAL): its writes are done */
    if (!e && fsync(o->fd) != 0 && !(o->tmp == NULL && (errno == EINVAL || errno == EROFS)))
        e = errno;
    errno = 0;
    if (close_out(o) && !e)
        e = errno ? errno : EIO;
    if (!e)
        return TRAPEZE_OK;
    trapeze_status s = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot write: %s", o->path,
                                    strerror(e));
    trapeze_outfile_abort(o);
    return s;
}

trapeze_status trapeze_outfile_commit(trapeze_outfile *o, trapeze_error *err)
{
    trapeze_status s = trapeze_outfile_finish(o, 0, err);
    if (s)
        return s; /* o is freed */
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        s = trapeze_fail(err, TRAPEZE_EIO, "%s: cannot write: %s", o->path, strerror(errno));
        trapeze_outfile_abort(o);
        return s;
    }
    trapeze_tmp_forget(o->slot);
    free_out(o);
    return TRAPEZE_OK;
}

void trapeze_outfile_abort(trapeze_outfile *o)
{
    if (!o)
        return;
    o->keep_fd = 0;
    close_out(o);
    if (o->tmp)
        unlink(o->tmp);
    trapeze_tmp_forget(o->slot);
    free_out(o);
}
