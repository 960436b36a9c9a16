/* th_open_regular: see th_regular.h. */
#define _GNU_SOURCE
#include "th_regular.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a non-regular file is, in the words of the other readers (language/src/dsl/regular-file.ts). */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a pipe (FIFO)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "a special file";
}

int th_open_regular(const char *path, int flags, off_t *size, char *err, size_t n)
{
    int fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st)) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, n, "%s: it is %s, not a regular file", path, kind_of(st.st_mode));
        close(fd);
        errno = EINVAL;
        return -1;
    }
    /* regular files ignore O_NONBLOCK; cleared all the same, so that every later read is an ordinary one */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (size) *size = st.st_size;
    return fd;
}
