/* chainlab-hog: the thesis' Syn 'C' best-effort workload, publishing the bytes it moved. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "th_hog.h"
#include "th_regular.h"

/* Only state a signal handler may touch (async-signal-safe flag). */
static volatile sig_atomic_t stop;
static void on_signal(int sig) { stop = sig; }

/* An existing file at the --shm path may be replaced only when it is a counter file left by a hog that
 * is gone (a crash); anything else is someone's file: refused, never deleted. A FIFO there no longer blocks the
 * open (th_open_regular); why it is not a stale counter file goes to `why`. */
static int stale_counter_file(const char *path, char *why, size_t n)
{
    struct th_hog_shm old;
    off_t size = 0;
    int fd = th_open_regular(path, O_RDONLY | O_NOFOLLOW, &size, why, n);
    if (fd < 0) return 0;
    int ok = size == (off_t)sizeof old && read(fd, &old, sizeof old) == (ssize_t)sizeof old &&
             old.magic == TH_HOG_MAGIC && old.pid > 0 && kill((pid_t)old.pid, 0) && errno == ESRCH;
    close(fd);
    if (!ok) snprintf(why, n, "%s: not a counter file of a finished hog", path);
    return ok;
}

int main(int argc, char **argv)
{
    const char *shm = NULL, *mode_s = "rw";
    size_t size = 4u << 20;
    long ms = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--shm=", 6)) shm = argv[i] + 6;
        else if (!strncmp(argv[i], "--size=", 7)) size = strtoull(argv[i] + 7, NULL, 10);
        else if (!strncmp(argv[i], "--mode=", 7)) mode_s = argv[i] + 7;
        else if (!strncmp(argv[i], "--duration-ms=", 14)) ms = strtol(argv[i] + 14, NULL, 10);
        else {
            fprintf(stderr,
                    "usage: chainlab-hog [--shm=FILE] [--size=BYTES] [--mode=read|write|rw] [--duration-ms=N]\n");
            return 2;
        }
    }
    enum th_hog_mode mode = !strcmp(mode_s, "read") ? TH_HOG_READ : !strcmp(mode_s, "write") ? TH_HOG_WRITE : TH_HOG_RW;
    if (size < 4096 || (strcmp(mode_s, "read") && strcmp(mode_s, "write") && strcmp(mode_s, "rw"))) {
        fprintf(stderr, "chainlab-hog: bad --size (>= 4096) or --mode (read|write|rw)\n");
        return 2;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGHUP, on_signal);
    /* ends with the process that started it (the throttler, the backend); CHAINLAB_PARENT_PID covers a
     * starter that died before the prctl */
    prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    const char *parent = getenv("CHAINLAB_PARENT_PID");
    if (parent && *parent && atol(parent) != (long)getppid()) return 1;
    struct th_hog_shm local = { 0 }, *m = &local;
    if (shm) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp%d", shm, (int)getpid());
        char why[512];
        if (!access(shm, F_OK) && !stale_counter_file(shm, why, sizeof why)) {
            fprintf(stderr, "chainlab-hog: --shm %s: refusing to replace it\n", why);
            return 2;
        }
        int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || ftruncate(fd, sizeof *m)) {
            perror("chainlab-hog: shm");
            if (fd >= 0) unlink(tmp);
            return 1;
        }
        m = mmap(NULL, sizeof *m, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (m == MAP_FAILED) {
            perror("chainlab-hog: mmap");
            return 1;
        }
        m->magic = TH_HOG_MAGIC;
        m->pid = getpid();
        /* appears complete; link() never replaces a file that appeared meanwhile, rename() only a stale one */
        int placed = stale_counter_file(shm, why, sizeof why) ? rename(tmp, shm) : link(tmp, shm);
        if (placed) {
            int e = errno;
            fprintf(stderr, "chainlab-hog: cannot create %s: %s\n", shm, strerror(e));
            unlink(tmp);
            return e == EEXIST ? 2 : 1;
        }
        unlink(tmp); /* after link(): the counter file is now shm (after rename() tmp no longer exists) */
    }
    size_t words = size / 8;
    uint64_t *buf = aligned_alloc(64, words * 8);
    if (!buf) return 1;
    memset(buf, 1, words * 8);
    uint64_t t0 = th_now_ns(), rd = 0, wr = 0, sum = 0;
    /* publish in chunks of at most 64 KiB so the daemon sees progress at 100 us resolution */
    size_t chunk = words < 8192 ? words : 8192;
    while (!stop && (!ms || th_now_ns() - t0 < (uint64_t)ms * 1000000ULL)) {
        for (size_t off = 0; off + chunk <= words && !stop; off += chunk) {
            sum += th_hog_pass(buf + off, chunk, mode, &rd, &wr);
            __atomic_store_n(&m->read_bytes, rd, __ATOMIC_RELAXED);
            __atomic_store_n(&m->write_bytes, wr, __ATOMIC_RELAXED);
            th_hog_notify_if_armed(m, rd, wr);
        }
    }
    double s = (double)(th_now_ns() - t0) / 1e9;
    printf("{\"read_bytes\":%llu,\"write_bytes\":%llu,\"seconds\":%.3f,\"checksum\":%llu}\n", (unsigned long long)rd,
           (unsigned long long)wr, s, (unsigned long long)(sum & 1));
    if (shm) unlink(shm);
    free(buf);
    return 0;
}
