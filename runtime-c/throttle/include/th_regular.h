/* The one way the throttler and the hog open a file they are told to read (a --shm counter file, a replay or
 * config file): only a regular file, the same rule as the CLI's and the backend's readers. */
#ifndef TH_REGULAR_H
#define TH_REGULAR_H
#include <stddef.h>
#include <sys/types.h>

/* Opens path with flags (O_RDONLY or O_RDWR, maybe O_NOFOLLOW) plus O_NONBLOCK, so that a FIFO cannot block the
 * open; a FIFO, device, socket or directory is refused after fstat. Returns the descriptor (blocking again, close
 * on exec) with the file's size in *size (when size is not NULL), or -1 with "PATH: REASON" in err. */
int th_open_regular(const char *path, int flags, off_t *size, char *err, size_t n);
#endif
