/*
 * tmpfiles.c - the registry of this process's live temporary output files
 * and the SIGINT/SIGTERM handler that removes them before the signal ends
 * the process. Owns the handler and the table; knows nothing of what the
 * files hold (common/outfile.c creates, tracks, renames and forgets them).
 *
 * The one piece of process-wide mutable state in the library, and why it
 * must be: a signal is delivered to the process, not to a call, so the
 * handler can only find the files through a static table. It is kept
 * async-signal-safe: fixed slots (no malloc), each with a lock-free atomic
 * state, so the handler reads only slots whose path is fully written, and
 * calls only unlink, sigaction and raise. Handlers are installed only where
 * the signal's action is still the default: a program embedding the library
 * that set its own, or a shell that ignores SIGINT (`nohup`, `&`), keeps it.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "tmpfiles.h"

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler needs lock-free atomics");

enum { SLOT_FREE, SLOT_FILLING, SLOT_LIVE };

static atomic_int slot_state[TRAPEZE_TMP_SLOTS];
static char slot_path[TRAPEZE_TMP_SLOTS][TRAPEZE_TMP_PATH_MAX];
static atomic_flag handlers_installed = ATOMIC_FLAG_INIT;

static void remove_all_then_die(int sig)
{
    int saved = errno;
    for (int i = 0; i < TRAPEZE_TMP_SLOTS; i++)
        if (atomic_load(&slot_state[i]) == SLOT_LIVE)
            unlink(slot_path[i]);
    /* back to the default action and again: the process ends by the signal,
     * so its parent sees 130 or 143 as without this handler */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved;
}

static void install(int sig)
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
        old.sa_handler != SIG_DFL)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_all_then_die;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(sig, &sa, NULL);
}

int trapeze_tmp_track(const char *path)
{
    if (!atomic_flag_test_and_set(&handlers_installed)) {
        install(SIGINT);
        install(SIGTERM);
    }
    size_t n = strlen(path);
    if (n >= TRAPEZE_TMP_PATH_MAX)
        return -1;
    for (int i = 0; i < TRAPEZE_TMP_SLOTS; i++) {
        int expect = SLOT_FREE;
        if (atomic_compare_exchange_strong(&slot_state[i], &expect, SLOT_FILLING)) {
            memcpy(slot_path[i], path, n + 1);
            atomic_store(&slot_state[i], SLOT_LIVE);
            return i;
        }
    }
    return -1;
}

void trapeze_tmp_forget(int slot)
{
    if (slot >= 0 && slot < TRAPEZE_TMP_SLOTS)
        atomic_store(&slot_state[slot], SLOT_FREE);
}
