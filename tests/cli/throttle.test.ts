/** `chainlab throttle-params` as a real process: text and JSON proposals, refusal of an unknown target. */
import { describe, expect, it } from 'vitest';
import { chainlab } from './cli-helpers';

describe('chainlab throttle-params', () => {
    it('proposes a budget for the ssh target (JSON)', async () => {
        const r = await chainlab(['throttle-params', 'samples/xray.chain', '--target', 'lab1', '--json']);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        const p = JSON.parse(r.stdout);
        expect(p.mode).toBe('budget');
        expect(p.proposal.chosen.distribution).toBe('static');
        expect(p.reasoning.length).toBeGreaterThan(2);
        expect(p.daemon_args).toContain('mode=budget');
    });

    it('proposes duty-cycle parameters with reasoning (text)', async () => {
        const r = await chainlab(['throttle-params', 'samples/xray.chain', '--target', 'here']);
        expect(r.status).toBe(0);
        expect(r.stdout).toMatch(/throttle BestEffort \(duty-cycle\)/);
        expect(r.stdout).toMatch(/proposal: sample 100 us, suspend \d+ us/);
        expect(r.stdout).toMatch(/daemon: chainlab-throttle mode=duty-cycle cores=1/);
    });

    it('refuses an unknown target with a message, not a traceback', async () => {
        const r = await chainlab(['throttle-params', 'samples/xray.chain', '--target', 'nope']);
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/no target named 'nope' in samples\/xray.chain; it has: here, lab1/);
        expect(r.stderr).not.toMatch(/Traceback/);
    });
});
