/*
 * test_outfile.c - the one output path (common/outfile.c, common/tmpfiles.c):
 * a file is replaced through a temporary file of the run's own, a planted
 * PATH.tmp link is never written through, a link and a folder are refused
 * with the target unchanged, a FIFO is written in place and stays a FIFO,
 * and SIGINT or SIGTERM removes the temporary file and ends the process by
 * the signal.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common/outfile.h"

static char dir[] = "/tmp/trapeze-outfile-XXXXXX";

static void at(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

/* How many names in dir end in ".tmp". */
static int tmp_files(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        n += len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0;
    }
    if (d)
        closedir(d);
    return n;
}

static trapeze_status write_text(const char *path, const char *text, trapeze_error *err)
{
    trapeze_outfile *o;
    trapeze_status s = trapeze_outfile_open(path, &o, err);
    if (s)
        return s;
    fputs(text, trapeze_outfile_stream(o));
    return trapeze_outfile_commit(o, err);
}

static void test_replace_and_links(void)
{
    char out[256], victim[256], planted[256], link[256], sub[256];
    trapeze_error err = {0};
    at(out, sizeof out, "out.csv");
    at(victim, sizeof victim, "victim");
    at(planted, sizeof planted, "out.csv.tmp");
    at(link, sizeof link, "link.csv");
    at(sub, sizeof sub, "sub");
    FILE *f = fopen(victim, "w");
    fputs("precious\n", f);
    fclose(f);
    /* a planted PATH.tmp link: not opened, not followed */
    CHECK(symlink(victim, planted) == 0);
    CHECK_OK(write_text(out, "a,b\n", &err));
    CHECK(strcmp(slurp(out), "a,b\n") == 0);
    CHECK(strcmp(slurp(victim), "precious\n") == 0);
    struct stat st;
    CHECK(lstat(planted, &st) == 0 && S_ISLNK(st.st_mode));
    unlink(planted);
    /* the file is replaced whole; no temporary file stays */
    CHECK_OK(write_text(out, "c\n", &err));
    CHECK(strcmp(slurp(out), "c\n") == 0);
    CHECK(tmp_files() == 0);
    /* an abort leaves the old file */
    trapeze_outfile *o;
    CHECK_OK(trapeze_outfile_open(out, &o, &err));
    fputs("half", trapeze_outfile_stream(o));
    CHECK(tmp_files() == 1);
    trapeze_outfile_abort(o);
    CHECK(strcmp(slurp(out), "c\n") == 0 && tmp_files() == 0);
    /* a link to a file: refused, link and file unchanged */
    CHECK(symlink(victim, link) == 0);
    CHECK(write_text(link, "x\n", &err) == TRAPEZE_EIO);
    CHECK(strstr(err.message, "link.csv: is a symbolic link") != NULL);
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(strcmp(slurp(victim), "precious\n") == 0);
    CHECK(trapeze_outfile_check(link, &err) == TRAPEZE_EIO);
    /* a folder: refused */
    CHECK(mkdir(sub, 0700) == 0);
    CHECK(write_text(sub, "x\n", &err) == TRAPEZE_EIO);
    CHECK(strstr(err.message, "sub: is a folder") != NULL);
    CHECK(tmp_files() == 0);
}

/* A FIFO is written in place: its reader gets the bytes, it stays a FIFO. */
static void test_fifo(void)
{
    char fifo[256];
    trapeze_error err = {0};
    at(fifo, sizeof fifo, "fifo");
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK_OK(trapeze_outfile_check(fifo, &err));   /* not opened: no reader yet */
    pid_t pid = fork();
    if (pid == 0) {
        char buf[64] = {0};
        int fd = open(fifo, O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        _exit(n == 6 && strcmp(buf, "hello\n") == 0 ? 0 : 1);
    }
    CHECK_OK(write_text(fifo, "hello\n", &err));
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    unlink(fifo);
}

/* A child opens an output, writes, and is sent sig: it ends by sig, and its
 * temporary file is gone. */
static void test_signal(int sig)
{
    char out[256];
    at(out, sizeof out, "killed.csv");
    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        /* the handlers came with the fork: this process installed them at
         * its first output, where the actions were still the default */
        trapeze_outfile *o;
        trapeze_error err;
        if (trapeze_outfile_open(out, &o, &err))
            _exit(3);
        fputs("partial", trapeze_outfile_stream(o));
        fflush(trapeze_outfile_stream(o));
        if (write(ready[1], "r", 1) != 1)
            _exit(4);
        for (;;)
            pause();
    }
    char c;
    close(ready[1]);
    CHECK(read(ready[0], &c, 1) == 1);
    close(ready[0]);
    CHECK(tmp_files() == 1);
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sig);
    CHECK(tmp_files() == 0);
    CHECK(access(out, F_OK) != 0);
}

int main(void)
{
    /* test_signal needs the default actions at the first output (where the
     * handlers are installed): a job started in the background by a
     * non-interactive shell inherits SIGINT ignored, and a handler is never
     * put over an ignored signal, so the child would wait for ever */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_replace_and_links();
    test_fifo();
    test_signal(SIGTERM);
    test_signal(SIGINT);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_outfile");
}
