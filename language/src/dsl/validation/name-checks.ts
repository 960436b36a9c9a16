/** Unique names in every scope, and settings given at most once. */
import type { AstNode, ValidationAcceptor, ValidationChecks } from 'langium';
import type { ChainAstType, Model } from '../../generated/ast.js';
import { boxPorts, chainInstances, platformCaches, pttsComponents, repeated } from '../model-util.js';
import { onceSettings } from '../once-settings.js';
import { Codes } from './diagnostic-codes.js';

/**
 * Reports every node whose key repeats an earlier one, at the later node's `property`, naming the line of the first.
 */
function reportDuplicates<N extends AstNode>(
    nodes: readonly N[],
    what: string,
    owner: string | undefined,
    accept: ValidationAcceptor,
    key: (node: N) => string | undefined = node => (node as { name?: string }).name,
    property = 'name',
): void {
    const seen = new Map<string, AstNode>();
    for (const node of nodes) {
        const name = key(node);
        if (!name) continue;
        const first = seen.get(name);
        if (first) {
            const where = first.$cstNode ? ` (first defined on line ${first.$cstNode.range.start.line + 1})` : '';
            accept('error', `Duplicate ${what} '${name}'${owner ? ` in ${owner}` : ''}${where}.`, {
                node,
                property: property as never,
                data: { code: Codes.duplicateName },
            });
        } else {
            seen.set(name, node);
        }
    }
}

/** `box 'A'`, or `this box` while a syntax error leaves the name out. */
const ownerLabel = (kind: string, name: string | undefined) =>
    name === undefined ? `this ${kind}` : `${kind} '${name}'`;

function reportRepeats(
    settings: ReadonlyArray<AstNode & { kind?: string }>,
    owner: string,
    accept: ValidationAcceptor,
): void {
    for (const node of repeated(settings)) {
        accept('error', `'${node.kind}' is given more than once in ${owner}; only the first counts.`, {
            node,
            data: { code: Codes.repeatedSetting },
        });
    }
}

export const nameChecks: ValidationChecks<ChainAstType> = {
    Model: (model: Model, accept) => reportDuplicates(model.elements, 'name', undefined, accept),
    Box: (box, accept) => {
        reportDuplicates(boxPorts(box), 'port', ownerLabel('box', box.name), accept);
        reportRepeats(onceSettings(box)!, ownerLabel('box', box.name), accept);
    },
    Chain: (chain, accept) => {
        reportDuplicates(chainInstances(chain), 'instance', ownerLabel('chain', chain.name), accept);
        reportRepeats(onceSettings(chain)!, ownerLabel('chain', chain.name), accept);
    },
    Schedule: (schedule, accept) => reportRepeats(onceSettings(schedule)!, 'the schedule', accept),
    Ptts: (ptts, accept) => {
        reportDuplicates(pttsComponents(ptts), 'component', ownerLabel('ptts', ptts.name), accept);
        reportRepeats(onceSettings(ptts)!, ownerLabel('ptts', ptts.name), accept);
    },
    Component: (component, accept) =>
        reportRepeats(onceSettings(component)!, ownerLabel('component', component.name), accept),
    Platform: (platform, accept) => {
        reportRepeats(onceSettings(platform)!, ownerLabel('platform', platform.name), accept);
        reportDuplicates(
            platformCaches(platform),
            'cache level',
            ownerLabel('platform', platform.name),
            accept,
            cache => cache.level,
            'level',
        );
    },
    HistogramEtp: (histogram, accept) => reportRepeats(onceSettings(histogram)!, 'the histogram', accept),
    DutyCycle: (mode, accept) => reportRepeats(onceSettings(mode)!, 'the duty-cycle throttle', accept),
    Budget: (mode, accept) => reportRepeats(onceSettings(mode)!, 'the budget throttle', accept),
    Target: (target, accept) => reportRepeats(onceSettings(target)!, ownerLabel('target', target.name), accept),
};
