/* Config parsing: good files, refusal of bad parameters with clear messages, and a fuzz run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "th_config.h"

static int failures;
#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++; \
        } \
    } while (0)

static int parse(const char *text, char *err, size_t n)
{
    struct th_config c;
    th_config_defaults(&c);
    if (th_config_parse_text(&c, text, "cfg", err, n)) return -1;
    return th_config_validate(&c, 2, err, n);
}

static void expect_error(const char *text, const char *needle)
{
    char err[1024] = "";
    int rc = parse(text, err, sizeof err);
    CHECK(rc == -1);
    if (!strstr(err, needle)) {
        fprintf(stderr, "for %s\n  got '%s'\n  want '%s'\n", text, err, needle);
        failures++;
    }
}

static void test_good(void)
{
    struct th_config c;
    char err[1024];
    th_config_defaults(&c);
    const char *text = "# duty-cycle like the thesis\nmode = duty-cycle\ncores = 1\nsample = 100us\nsuspend = 900us\n"
                       "read_threshold = 25%\nwrite_threshold = 1.5GB/s\nmechanism = sigstop\npids = 1234,1235\n";
    CHECK(th_config_parse_text(&c, text, "cfg", err, sizeof err) == 0);
    CHECK(th_config_validate(&c, 2, err, sizeof err) == 0);
    CHECK(c.sample_ns == 100000 && c.suspend_ns == 900000 && c.read_pct && c.read_thr == 25);
    CHECK(!c.write_pct && c.write_thr == 1.5e9 && c.npids == 2 && c.pids[1] == 1235);
    th_config_defaults(&c);
    CHECK(th_config_parse_text(&c,
                               "mode=budget\ncores=0-1\nperiod=10ms\nbudget=15000\ndistribution=dynamic\n"
                               "mechanism=freeze\ncgroup=/sys/fs/cgroup/unified/x\n",
                               "cfg", err, sizeof err) == 0);
    CHECK(th_config_validate(&c, 2, err, sizeof err) == 0);
    CHECK(c.ncores == 2 && c.period_ns == 10000000 && c.budget == 15000 && c.dynamic);
    th_config_defaults(&c); /* Nehalem's L2_TRANSACTIONS.LOAD and L2_LINES_OUT.ANY as raw codes */
    CHECK(th_config_set(&c, "event", "raw:01F0,0FF2", err, sizeof err) == 0);
    CHECK(c.raw_read == 0x01F0 && c.raw_write == 0x0FF2 && !strcmp(c.event, "raw"));
    CHECK(th_config_set(&c, "event", "nehalem:l2", err, sizeof err) == 0);
}

static void test_bad(void)
{
    expect_error("mode=budget\ncores=1\nperiod=1ms\nsample=1ms\nbudget=5\nmechanism=none\n",
                 "must be shorter than period");
    expect_error("cores=7\nthreshold=10%\nmechanism=none\n", "core 7 is out of range (this machine has cores 0-1)");
    expect_error("event=l2_nonsense\n", "unknown event 'l2_nonsense'");
    expect_error("cores=1\nmechanism=none\n", "set read_threshold and/or write_threshold");
    expect_error("threshold=120%\n", "percentage 0-100");
    expect_error("sample=-5us\n", "not a positive duration");
    expect_error("sample=5 weeks\n", "not a positive duration");
    expect_error("cores=1,1\nthreshold=1%\nmechanism=none\n", "listed twice");
    expect_error("bogus=1\n", "unknown key 'bogus'");
    expect_error("event=raw:zz\n", "is not raw:HEX");
    expect_error("event=raw:\n", "is not raw:HEX");
    expect_error("cores\n", "cfg:1: expected 'key = value'");
    expect_error("cores=1\nthreshold=1%\nmechanism=sigstop\n", "needs pids=");
    expect_error("cores=1\nthreshold=1%\nmechanism=freeze\n", "needs cgroup=");
    expect_error("cgroup=../x\n", "absolute path");
    expect_error("pids=1\n", "pid 0 or 1");
    expect_error("cores=1\nthreshold=1%\nmechanism=fifo-hold\nsampler_cpu=1\n", "would block the sampler");
    expect_error("mode=budget\ncores=1\nmechanism=none\n", "set the budget Q");
    expect_error("cores=0\nthreshold=1%\nmechanism=none\nsource=replay\n", "needs replay=FILE");
    expect_error("cores=0\nthreshold=1%\nmechanism=none\nsource=coop\n", "one shm file per core");
}

/* Random and mutated inputs: the parser must return 0 or -1 with a message, never crash or overrun. */
static void test_fuzz(void)
{
    static const char *seeds[] = { "mode=budget\n",   "cores=0-1,3\n",  "sample=100us\n",
                                   "threshold=25%\n", "budget=15000\n", "pids=12,13\n",
                                   "shm=/a,/b\n",     "cgroup=/x/y\n",  "# c\n" };
    static const char alphabet[] = "=\n#-,%/.0123456789abcdefgmsuBKMG \t";
    unsigned seed = 12345;
    char text[512], err[1024];
    for (int it = 0; it < 200000; it++) {
        size_t len = 0;
        int parts = (int)(rand_r(&seed) % 4) + 1;
        for (int p = 0; p < parts; p++) {
            const char *s = seeds[rand_r(&seed) % (sizeof seeds / sizeof *seeds)];
            size_t l = strlen(s);
            if (len + l >= sizeof text - 1) break;
            memcpy(text + len, s, l);
            len += l;
        }
        int muts = (int)(rand_r(&seed) % 4);
        for (int m = 0; m < muts && len; m++)
            text[rand_r(&seed) % len] = alphabet[rand_r(&seed) % (sizeof alphabet - 1)];
        if (rand_r(&seed) % 8 == 0) { /* pure random bytes */
            len = rand_r(&seed) % (sizeof text - 1);
            for (size_t i = 0; i < len; i++) text[i] = (char)(1 + rand_r(&seed) % 255);
        }
        text[len] = 0;
        memset(err, 0, sizeof err);
        int rc = parse(text, err, sizeof err);
        CHECK(rc == 0 || rc == -1);
        if (rc == -1 && !err[0]) {
            fprintf(stderr, "no message for input %d\n", it);
            failures++;
            break;
        }
    }
}

/* The argv path: random key=value words, "--config" without a file, "--" without a command. */
static void test_fuzz_args(void)
{
    static const char *words[] = { "--mode=budget",
                                   "cores=1",
                                   "--sample=100us",
                                   "--",
                                   "--config",
                                   "threshold=5%",
                                   "--read-threshold=1GB/s",
                                   "x",
                                   "=",
                                   "--=",
                                   "--budget=",
                                   "pids=2-3",
                                   "hog",
                                   "--bogus=1" };
    unsigned seed = 777;
    char err[1024];
    for (int it = 0; it < 50000; it++) {
        char *argv[8];
        int argc = 1 + (int)(rand_r(&seed) % 7);
        argv[0] = "chainlab-throttle";
        for (int i = 1; i < argc; i++) argv[i] = (char *)words[rand_r(&seed) % (sizeof words / sizeof *words)];
        struct th_config c;
        th_config_defaults(&c);
        err[0] = 0;
        int rc = th_config_parse_args(&c, argc, argv, err, sizeof err);
        CHECK(rc == 0 || (rc == -1 && err[0]));
        if (rc == 0 && c.command) CHECK(c.command[0] != NULL);
    }
}

int main(void)
{
    test_good();
    test_bad();
    test_fuzz();
    test_fuzz_args();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_config: ok\n");
    return 0;
}
