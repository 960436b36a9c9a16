/** Platforms, throttles and targets: the machine the chain runs on and how best-effort work is kept in check. */
import type { ValidationAcceptor, ValidationChecks } from 'langium';
import {
    isBudgetValue,
    isDutyCycleValue,
    type Budget,
    type ChainAstType,
    type CoreSet,
    type DutyCycle,
    type Target,
} from '../../generated/ast.js';
import { expandCoreSet, platformCores, targetSetting, unquote } from '../model-util.js';
import { durationNs, parseDecimal } from '../units.js';
import { reportCoresOutside } from './chain-checks.js';
import { Codes } from './diagnostic-codes.js';

/** `user@host` or `host`, host a DNS name or IPv4/IPv6 address; no shell metacharacters. */
const SSH_ADDRESS = /^(?:[A-Za-z_][A-Za-z0-9_.-]*@)?(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:]+\])$/;

function positiveDuration(
    node: { kind?: string } & Record<string, unknown>,
    property: string,
    accept: ValidationAcceptor,
    what: string,
): bigint | undefined {
    const ns = durationNs(node[property] as never);
    if (!ns.ok) return undefined;
    if (ns.value <= 0n)
        accept('error', `The ${what} must be positive.`, {
            node: node as never,
            property,
            data: { code: Codes.throttleParameter },
        });
    return ns.value;
}

function checkDutyCycle(mode: DutyCycle, accept: ValidationAcceptor): void {
    let sample: bigint | undefined;
    const values = mode.settings.filter(isDutyCycleValue);
    for (const setting of values) {
        if (setting.kind === 'sample') sample = positiveDuration(setting as never, 'sample', accept, 'sample interval');
        if (setting.kind === 'suspend') positiveDuration(setting as never, 'suspend', accept, 'suspension time');
        if (setting.threshold) {
            const value = Number(setting.threshold.value);
            if (setting.threshold.unit === '%' && !(value > 0 && value <= 100)) {
                accept('error', 'A threshold in percent must be in (0, 100].', {
                    node: setting.threshold,
                    data: { code: Codes.throttleParameter },
                });
            } else if (!(value > 0)) {
                accept('error', 'A bandwidth threshold must be positive.', {
                    node: setting.threshold,
                    data: { code: Codes.throttleParameter },
                });
            }
        }
    }
    if (!values.some(v => v.threshold)) {
        accept(
            'error',
            "A duty-cycle throttle needs a 'threshold' (or 'read-threshold' / 'write-threshold') above which it suspends the best-effort cores.",
            {
                node: mode,
                property: 'kind',
                data: { code: Codes.throttleParameter },
            },
        );
    }
    const suspend = values.find(s => s.kind === 'suspend');
    const suspendNs = suspend ? durationNs(suspend.suspend) : undefined;
    if (sample !== undefined && suspendNs?.ok && sample > suspendNs.value) {
        accept(
            'warning',
            'The sample interval is longer than the suspension; a suspension then ends before the next sample can confirm it.',
            {
                node: suspend!,
                data: { code: Codes.throttleParameter },
            },
        );
    }
}

function checkBudget(mode: Budget, accept: ValidationAcceptor): void {
    for (const setting of mode.settings.filter(isBudgetValue)) {
        if (setting.kind === 'period') positiveDuration(setting as never, 'period', accept, 'budget period');
        if (setting.kind === 'misses' && !(setting.misses !== undefined && setting.misses > 0)) {
            accept('error', 'A budget must allow at least one miss per period.', {
                node: setting,
                property: 'misses',
                data: { code: Codes.throttleParameter },
            });
        }
    }
    if (!mode.settings.some(s => s.kind === 'period') || !mode.settings.some(s => s.kind === 'misses')) {
        accept('error', "A budget throttle needs a 'period' and a number of 'misses'.", {
            node: mode,
            property: 'kind',
            data: { code: Codes.throttleParameter },
        });
    }
}

function checkTarget(target: Target, accept: ValidationAcceptor): void {
    if (target.name === undefined) return; // a syntax error; its diagnostic says enough
    const local = targetSetting(target, 'local');
    const ssh = targetSetting(target, 'ssh');
    if (!local && !ssh) {
        accept('error', `Target '${target.name}' must be either 'local' or 'ssh "user@host"'.`, {
            node: target,
            property: 'name',
            data: { code: Codes.targetKind },
        });
    } else if (local && ssh) {
        // At whichever of the two comes second.
        const second = target.settings.indexOf(local) < target.settings.indexOf(ssh) ? ssh : local;
        accept('error', `Target '${target.name}' is either 'local' or 'ssh "user@host"', not both.`, {
            node: second,
            data: { code: Codes.targetKind },
        });
    }
    if (ssh?.ssh !== undefined) {
        const address = unquote(ssh.ssh);
        if (!SSH_ADDRESS.test(address)) {
            accept('error', `'${address}' is not an SSH address (user@host).`, {
                node: ssh,
                property: 'ssh',
                data: { code: Codes.sshAddress },
            });
        }
    }
    const port = targetSetting(target, 'port');
    if (port && !(port.port! >= 1 && port.port! <= 65535)) {
        accept('error', 'A TCP port is in 1..65535.', {
            node: port,
            property: 'port',
            data: { code: Codes.sshAddress },
        });
    }
    if (local && (port || targetSetting(target, 'key'))) {
        accept('warning', "'port' and 'key' only apply to ssh targets.", {
            node: port ?? targetSetting(target, 'key')!,
            data: { code: Codes.targetKind },
        });
    }
    const rt = targetSetting(target, 'rt-cores');
    const be = targetSetting(target, 'be-cores');
    const rtCores = expandCoreSet(rt?.cores);
    // At each best-effort range that takes a real-time core.
    for (const range of be?.cores?.ranges ?? []) {
        const overlap = expandCoreSet({ ranges: [range] } as unknown as CoreSet).filter(c => rtCores.includes(c));
        if (overlap.length > 0) {
            accept(
                'error',
                `Core(s) ${overlap.join(', ')} are both real-time and best-effort cores (rt-cores ${rt!.cores!.$cstNode?.text}).`,
                {
                    node: range,
                    data: { code: Codes.overlappingCores },
                },
            );
        }
    }
    const platform = targetSetting(target, 'platform')?.platform?.ref;
    const cores = platform ? platformCores(platform) : undefined;
    if (cores !== undefined) {
        for (const setting of [rt, be]) {
            if (setting?.cores) reportCoresOutside(setting.cores, cores, platform!.name, accept);
        }
    }
    const throttle = targetSetting(target, 'throttle');
    const workload = targetSetting(target, 'workload');
    if (!throttle && (workload || be)) {
        accept(
            'warning',
            `Target '${target.name}' runs best-effort work but names no throttle ('throttle T'); it can then disturb the real-time chain without limit.`,
            {
                node: (workload ?? be)!,
                data: { code: Codes.missingThrottle },
            },
        );
    }
}

export const systemChecks: ValidationChecks<ChainAstType> = {
    Platform: (platform, accept) => {
        if (platform.name === undefined) return; // a syntax error; its diagnostic says enough
        const cores = platformCores(platform);
        if (cores === undefined) {
            accept('error', `Platform '${platform.name}' needs a core count ('cores N').`, {
                node: platform,
                property: 'name',
                data: { code: Codes.platformCores },
            });
        } else if (cores < 1) {
            accept('error', 'A platform has at least one core.', {
                node: platform.settings.find(s => s.kind === 'cores')!,
                data: { code: Codes.platformCores },
            });
        }
    },
    DutyCycle: checkDutyCycle,
    Budget: checkBudget,
    Target: checkTarget,
    CoreRange: (range, accept) => {
        if (range.last !== undefined && range.last < range.first) {
            accept('error', `Empty core range ${range.first}..${range.last}.`, {
                node: range,
                data: { code: Codes.coreOutOfRange },
            });
        }
    },
    CounterSetting: (counter, accept) => {
        if (counter.raw !== undefined && unquote(counter.raw).trim() === '') {
            accept('error', 'A raw counter names a perf event (\'counter raw "r412e"\').', {
                node: counter,
                property: 'raw',
                data: { code: Codes.throttleParameter },
            });
        }
    },
    Threshold: (threshold, accept) => {
        if (threshold.value === undefined) return; // a syntax error
        if (!parseDecimal(threshold.value))
            accept('error', `'${threshold.value}' is not a number.`, {
                node: threshold,
                data: { code: Codes.badQuantity },
            });
        else if (!Number.isFinite(Number(threshold.value)))
            accept('error', `'${threshold.value}' is too large a threshold.`, {
                node: threshold,
                data: { code: Codes.badQuantity },
            });
    },
};
