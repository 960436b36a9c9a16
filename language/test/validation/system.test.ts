/**
 * Platforms, throttles and targets: core counts, throttle parameters, how a
 * target is reached, and its real-time and best-effort cores.
 */
import { describe, expect, test } from 'vitest';
import { check, issues, messages } from './helpers.js';

const BUDGET = 'throttle B { budget period 10 ms misses 10 }';

describe('platform-cores', () => {
    test('a platform without core count: error at its name', async () => {
        const doc = await check('platform Q { smt on }');
        expect(issues(doc)).toEqual(['error platform-cores 1:10..1:11 "Q"']);
        expect(messages(doc, 'platform-cores')).toEqual(["Platform 'Q' needs a core count ('cores N')."]);
    });

    test('zero cores: error at the setting', async () => {
        const doc = await check('platform Q { cores 0 }');
        expect(issues(doc)).toEqual(['error platform-cores 1:14..1:21 "cores 0"']);
        expect(messages(doc, 'platform-cores')).toEqual(['A platform has at least one core.']);
    });

    test('positive: one core, caches, smt', async () => {
        expect(
            issues(await check('platform Q { cores 1 cache L1 32 KiB private cache L3 8 MiB shared smt off }')),
        ).toEqual([]);
    });
});

describe('throttle-parameter', () => {
    test('a duty-cycle throttle without threshold: error at `duty-cycle`', async () => {
        const doc = await check('throttle T { duty-cycle sample 100 us suspend 900 us }');
        expect(issues(doc)).toEqual(['error throttle-parameter 1:14..1:24 "duty-cycle"']);
        expect(messages(doc, 'throttle-parameter')).toEqual([
            "A duty-cycle throttle needs a 'threshold' (or 'read-threshold' / 'write-threshold') above which it suspends the best-effort cores.",
        ]);
    });

    test('zero sample, suspension and threshold: errors at each value', async () => {
        const doc = await check('throttle T { duty-cycle sample 0 us suspend 0 ms threshold 0 % }');
        expect(issues(doc)).toEqual([
            'error throttle-parameter 1:32..1:36 "0 us"',
            'error throttle-parameter 1:45..1:49 "0 ms"',
            'error throttle-parameter 1:60..1:63 "0 %"',
        ]);
        expect(messages(doc, 'throttle-parameter')).toEqual([
            'The sample interval must be positive.',
            'The suspension time must be positive.',
            'A threshold in percent must be in (0, 100].',
        ]);
    });

    test('a threshold above 100 %, a bandwidth of 0', async () => {
        const doc = await check(
            'throttle T { duty-cycle threshold 150 % }',
            'throttle U { duty-cycle read-threshold 0 MB/s }',
        );
        expect(issues(doc)).toEqual([
            'error throttle-parameter 1:35..1:40 "150 %"',
            'error throttle-parameter 2:40..2:46 "0 MB/s"',
        ]);
        expect(messages(doc, 'throttle-parameter')[1]).toBe('A bandwidth threshold must be positive.');
    });

    test('a sample interval longer than the suspension: a warning at the suspension', async () => {
        const doc = await check('throttle T { duty-cycle sample 2 ms suspend 1 ms threshold 20 % }');
        expect(issues(doc)).toEqual(['warning throttle-parameter 1:37..1:49 "suspend 1 ms"']);
    });

    test('an empty raw counter: error at the event name', async () => {
        const doc = await check('throttle T { duty-cycle counter raw "" threshold 20 % }');
        expect(issues(doc)).toEqual(['error throttle-parameter 1:37..1:39 "\\"\\""']);
    });

    test('a budget without period or misses: error at `budget`', async () => {
        const doc = await check('throttle B { budget period 10 ms }', 'throttle C { budget misses 10 }');
        expect(issues(doc)).toEqual([
            'error throttle-parameter 1:14..1:20 "budget"',
            'error throttle-parameter 2:14..2:20 "budget"',
        ]);
        expect(messages(doc, 'throttle-parameter')[0]).toBe(
            "A budget throttle needs a 'period' and a number of 'misses'.",
        );
    });

    test('a zero budget period and zero misses: errors at the values', async () => {
        const doc = await check('throttle B { budget period 0 ms misses 0 }');
        expect(issues(doc)).toEqual([
            'error throttle-parameter 1:28..1:32 "0 ms"',
            'error throttle-parameter 1:40..1:41 "0"',
        ]);
        expect(messages(doc, 'throttle-parameter')).toEqual([
            'The budget period must be positive.',
            'A budget must allow at least one miss per period.',
        ]);
    });

    test('positive: complete duty-cycle and budget throttles', async () => {
        const doc = await check(
            'throttle T { duty-cycle counter llc-misses sample 100 us suspend 900 us threshold 25 % mechanism sigstop proportional }',
            'throttle U { duty-cycle read-threshold 2 GB/s write-threshold 500 MiB/s counter raw "r412e" }',
            'throttle B { budget period 10 ms misses 15000 per core distribution dynamic }',
            'throttle C { budget misses 100 shared period 1 ms mechanism freeze }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('target-kind', () => {
    test('neither local nor ssh: error at the target name', async () => {
        const doc = await check('target t { rt-cores 0 }');
        expect(issues(doc)).toEqual(['error target-kind 1:8..1:9 "t"']);
        expect(messages(doc, 'target-kind')).toEqual(["Target 't' must be either 'local' or 'ssh \"user@host\"'."]);
    });

    test('both local and ssh: error at whichever comes second', async () => {
        const doc = await check('target t { local ssh "a@b" }', 'target u { ssh "a@b" local }');
        expect(issues(doc)).toEqual([
            'error target-kind 1:18..1:27 "ssh \\"a@b\\""',
            'error target-kind 2:22..2:27 "local"',
        ]);
    });

    test('port or key on a local target: a warning at the setting', async () => {
        const doc = await check('target t { local port 22 }', 'target u { local key "k" }');
        expect(issues(doc)).toEqual([
            'warning target-kind 1:18..1:25 "port 22"',
            'warning target-kind 2:18..2:25 "key \\"k\\""',
        ]);
        expect(messages(doc, 'target-kind')[0]).toBe("'port' and 'key' only apply to ssh targets.");
    });

    test('positive: a local and an ssh target', async () => {
        expect(issues(await check('target t { local }', 'target u { ssh "a@b" port 22 key "~/.ssh/id" }'))).toEqual([]);
    });
});

describe('ssh-address', () => {
    test('addresses with shell characters, spaces, or no user before @: error at the string', async () => {
        const doc = await check(
            'target t { ssh "a;b" }',
            'target u { ssh "user@host name" }',
            'target v { ssh "@host" }',
        );
        expect(issues(doc)).toEqual([
            'error ssh-address 1:16..1:21 "\\"a;b\\""',
            'error ssh-address 2:16..2:32 "\\"user@host name\\""',
            'error ssh-address 3:16..3:23 "\\"@host\\""',
        ]);
        expect(messages(doc, 'ssh-address')[0]).toBe("'a;b' is not an SSH address (user@host).");
    });

    test('a port outside 1..65535: error at the port', async () => {
        const doc = await check('target t { ssh "a@b" port 0 }', 'target u { ssh "a@b" port 70000 }');
        expect(issues(doc)).toEqual(['error ssh-address 1:27..1:28 "0"', 'error ssh-address 2:27..2:32 "70000"']);
        expect(messages(doc, 'ssh-address')[0]).toBe('A TCP port is in 1..65535.');
    });

    test('positive: user@IPv4, a DNS name, user@[IPv6], ports 1 and 65535', async () => {
        const doc = await check(
            'target t { ssh "xray@10.200.0.2" port 2222 key "~/.ssh/id" }',
            'target u { ssh "lab-pc.example.org" port 1 }',
            'target v { ssh "root@[fe80::1]" port 65535 }',
            'target w { ssh "host" root "/opt/chainlab" }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('overlapping-cores', () => {
    test('best-effort cores that are real-time cores: an error at each best-effort range that takes one', async () => {
        const doc = await check(BUDGET, 'target t { local rt-cores 0..1 be-cores 1..2, 3, 0 throttle B }');
        expect(issues(doc)).toEqual([
            'error overlapping-cores 2:41..2:45 "1..2"',
            'error overlapping-cores 2:50..2:51 "0"',
        ]);
        expect(messages(doc, 'overlapping-cores')).toEqual([
            'Core(s) 1 are both real-time and best-effort cores (rt-cores 0..1).',
            'Core(s) 0 are both real-time and best-effort cores (rt-cores 0..1).',
        ]);
    });

    test('positive: disjoint sets', async () => {
        expect(issues(await check(BUDGET, 'target t { local rt-cores 0..1 be-cores 2..3 throttle B }'))).toEqual([]);
    });
});

describe('core-out-of-range (target)', () => {
    test("cores the target's platform lacks: an error at each range", async () => {
        const doc = await check(
            'platform P { cores 4 }',
            BUDGET,
            'target t { local platform P rt-cores 0..1, 4 be-cores 2..5 throttle B }',
        );
        expect(issues(doc)).toEqual([
            'error core-out-of-range 3:44..3:45 "4"',
            'error core-out-of-range 3:55..3:59 "2..5"',
            'error overlapping-cores 3:55..3:59 "2..5"',
        ]);
        expect(messages(doc, 'core-out-of-range')).toEqual([
            "Core(s) 4 do not exist on platform 'P' (cores 0..3).",
            "Core(s) 4, 5 do not exist on platform 'P' (cores 0..3).",
        ]);
    });

    test('an empty range', async () => {
        const doc = await check('target t { local rt-cores 2..1 }');
        expect(issues(doc)).toEqual(['error core-out-of-range 1:27..1:31 "2..1"']);
    });

    test('positive: cores within the platform', async () => {
        expect(
            issues(
                await check(
                    'platform P { cores 4 }',
                    BUDGET,
                    'target t { local platform P rt-cores 0..1 be-cores 2..3 throttle B }',
                ),
            ),
        ).toEqual([]);
    });
});

describe('missing-throttle', () => {
    test('best-effort cores or a workload without throttle: a warning at the workload (or be-cores)', async () => {
        const doc = await check(
            'target t { local rt-cores 0 be-cores 1 }',
            'target u { local rt-cores 0 workload hog }',
            'target v { local rt-cores 0 be-cores 1 workload "stress -c 1" }',
        );
        expect(issues(doc)).toEqual([
            'warning missing-throttle 1:29..1:39 "be-cores 1"',
            'warning missing-throttle 2:29..2:41 "workload hog"',
            'warning missing-throttle 3:40..3:62 "workload \\"stress -c 1\\""',
        ]);
        expect(messages(doc, 'missing-throttle')[0]).toBe(
            "Target 't' runs best-effort work but names no throttle ('throttle T'); it can then disturb the real-time chain without limit.",
        );
    });

    test('positive: a throttle, or no best-effort work at all', async () => {
        const doc = await check(
            BUDGET,
            'target t { local rt-cores 0 be-cores 1 workload hog throttle B }',
            'target u { local rt-cores 0..3 }',
        );
        expect(issues(doc)).toEqual([]);
    });
});
