/**
 * What a box can still take, given what it has: a kernel other than `source` and the `source` setting exclude each
 * other (a periodic source runs kernel source), and a kernel takes only so many ports. The validator reports a box
 * that breaks this (box-checks.ts); completion does not offer a member that would.
 */
import type { AstNode } from 'langium';
import { isKernel, isPort, isSourceSpec, type Box } from '../generated/ast.js';
import { KERNELS } from './kernels.js';

/** Whether a box's kernel conflicts with its `source` setting: a source box names kernel source, or none. */
export function kernelConflictsWithSource(kernelName: string | undefined, isSource: boolean): boolean {
    return isSource && kernelName !== undefined && kernelName !== 'source';
}

/**
 * The member keywords (`kernel`, `source`, `in`, `out`) that `box` cannot take any more. The member `writing`
 * (the one at the cursor, which may be retyped) does not count.
 */
export function membersNotFitting(box: Box, writing?: (member: AstNode) => boolean): Set<string> {
    const members = box.members.filter(member => !writing?.(member));
    const kernel = members.find(isKernel);
    const source = members.some(isSourceSpec);
    const excluded = new Set<string>();
    if (kernelConflictsWithSource(kernel?.name, true)) excluded.add('source');
    // a source box's kernel is source already: `kernel` could only repeat it
    if (source) excluded.add('kernel');
    const spec = KERNELS.get(kernel?.name ?? (source ? 'source' : ''));
    if (spec) {
        const ports = members.filter(isPort);
        if (ports.filter(p => p.direction === 'in').length >= spec.inputs[1]) excluded.add('in');
        if (ports.filter(p => p.direction === 'out').length >= spec.outputs[1]) excluded.add('out');
    }
    return excluded;
}
