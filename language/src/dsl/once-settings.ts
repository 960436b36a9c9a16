/**
 * The settings an element gives at most once (`kernel` in a box, `schedule` in a chain, `period` in a
 * component, `ssh` in a target …): the validator reports a repeat, completion does not offer one again.
 * Ports, instances, connections, caches, components and requirements may repeat.
 */
import type { AstNode, AstReflection } from 'langium';

export type Setting = AstNode & { kind?: string };

interface OnceList {
    /** The property holding the element's settings. */
    readonly list: string;
    /** The grammar type of that property's items. */
    readonly itemType: string;
    /** Whether items of a type are given at most once. */
    readonly once: (type: string) => boolean;
}

const ALL = () => true;

const ONCE: Readonly<Record<string, OnceList>> = {
    Platform: { list: 'settings', itemType: 'PlatformSetting', once: type => type !== 'Cache' },
    Box: { list: 'members', itemType: 'BoxMember', once: type => type !== 'Port' },
    Chain: {
        list: 'members',
        itemType: 'ChainMember',
        once: type => ['Schedule', 'MemorySetting', 'IterationsSetting'].includes(type),
    },
    Schedule: { list: 'options', itemType: 'ScheduleOption', once: ALL },
    Ptts: {
        list: 'members',
        itemType: 'PttsMember',
        once: type => type === 'ResolutionSetting' || type === 'OrderSetting',
    },
    Component: { list: 'settings', itemType: 'ComponentSetting', once: ALL },
    HistogramEtp: { list: 'options', itemType: 'HistogramOption', once: ALL },
    DutyCycle: { list: 'settings', itemType: 'DutyCycleSetting', once: ALL },
    Budget: { list: 'settings', itemType: 'BudgetSetting', once: ALL },
    Target: { list: 'settings', itemType: 'TargetSetting', once: ALL },
};

/** The settings of `node` that it may give only once (undefined: an element without such settings). */
export function onceSettings(node: AstNode): Setting[] | undefined {
    const entry = ONCE[node.$type];
    if (!entry) return undefined;
    const items = (node as unknown as Record<string, unknown>)[entry.list];
    return Array.isArray(items) ? (items as Setting[]).filter(item => entry.once(item.$type)) : [];
}

/** Whether a setting of grammar type `type` (a rule's type, e.g. `Kernel`) goes into `owner` at most once. */
export function givenOnceIn(owner: AstNode, type: string, reflection: AstReflection): boolean {
    const entry = ONCE[owner.$type];
    return !!entry && reflection.isSubtype(type, entry.itemType) && entry.once(type);
}
