/** Boxes: a known kernel with valid parameters, ports that fit it, a consistent dependency, and exact quantities. */
import { GrammarUtils, type ValidationAcceptor, type ValidationChecks } from 'langium';
import { isSplitSetting, type Box, type ChainAstType, type Kernel } from '../../generated/ast.js';
import { KERNELS, PIXEL_TYPES, type KernelSpec } from '../kernels.js';
import { closeNames, quotedAlternatives } from '../close-names.js';
import { kernelConflictsWithSource } from '../box-fit.js';
import {
    boxCost,
    boxDepends,
    boxInputs,
    boxKernel,
    boxKernelName,
    boxOutputs,
    boxPorts,
    boxSource,
    boxSplit,
} from '../model-util.js';
import { durationNs, parseDecimal, sizeBytes } from '../units.js';
import { kernelHaloRows } from '../row-slices.js';
import { Codes } from './diagnostic-codes.js';

function checkKernelArguments(kernel: Kernel, spec: KernelSpec, accept: ValidationAcceptor): void {
    const args = kernel.args;
    const required = spec.params.length - (spec.optional ?? 0);
    if (args.length < required || args.length > spec.params.length) {
        const expected = required === spec.params.length ? `${required}` : `${required} to ${spec.params.length}`;
        const signature = `${spec.name}(${spec.params.map(p => p.name).join(', ')})`;
        const message = `Kernel '${spec.name}' takes ${expected} parameter(s), ${args.length} given: ${signature}.`;
        // Too many: mark the surplus arguments; too few: the kernel's name.
        const argNodes = GrammarUtils.findNodesForProperty(kernel.$cstNode, 'args');
        const surplus = argNodes.slice(spec.params.length);
        if (args.length > spec.params.length && surplus.length > 0) {
            accept('error', message, {
                node: kernel,
                range: { start: surplus[0].range.start, end: surplus[surplus.length - 1].range.end },
                data: { code: Codes.kernelParameters },
            });
        } else {
            accept('error', message, { node: kernel, property: 'name', data: { code: Codes.kernelParameters } });
        }
        return;
    }
    args.forEach((arg, index) => {
        const param = spec.params[index];
        const value = Number(arg);
        const problems: string[] = [];
        if (!Number.isFinite(value)) problems.push('a number');
        if (param.integer && !Number.isInteger(value)) problems.push('a whole number');
        if (param.min !== undefined && value < param.min) problems.push(`at least ${param.min}`);
        if (param.odd && Number.isInteger(value) && value % 2 === 0) problems.push('odd');
        if (problems.length > 0) {
            accept(
                'error',
                `Parameter '${param.name}' of kernel '${spec.name}' must be ${problems.join(' and ')} (got ${arg}).`,
                {
                    node: kernel,
                    property: 'args',
                    index,
                    data: { code: Codes.kernelParameters },
                },
            );
        }
    });
}

function checkKernelPorts(box: Box, spec: KernelSpec, accept: ValidationAcceptor): void {
    const describe = ([min, max]: readonly [number, number], what: string) =>
        min === max ? `${min} ${what}` : max > 1000 ? `at least ${min} ${what}` : `${min} to ${max} ${what}`;
    const inputs = boxInputs(box).length;
    const outputs = boxOutputs(box).length;
    const [inMin, inMax] = spec.inputs;
    const [outMin, outMax] = spec.outputs;
    if (inputs < inMin || inputs > inMax || outputs < outMin || outputs > outMax) {
        const message = `Kernel '${spec.name}' needs ${describe(spec.inputs, 'input(s)')} and ${describe(spec.outputs, 'output(s)')}; box '${box.name}' has ${inputs} input(s) and ${outputs} output(s).`;
        // At the kernel's name (or `source` of a source box without kernel).
        const kernel = boxKernel(box);
        if (kernel) accept('error', message, { node: kernel, property: 'name', data: { code: Codes.kernelPorts } });
        else
            accept('error', message, {
                node: boxSource(box) ?? box,
                property: 'kind',
                data: { code: Codes.kernelPorts },
            });
    }
}

/**
 * Kernels that map each input pixel to the output pixel at the same place: every port has the image size of the first.
 */
function checkImageSizes(box: Box, spec: KernelSpec, accept: ValidationAcceptor): void {
    if (spec.name === 'source' || spec.name === 'sink') return;
    const ports = boxPorts(box).filter(p => p.type?.ref);
    const first = ports[0]?.type.ref;
    if (!first) return;
    for (const port of ports.slice(1)) {
        const image = port.type.ref!;
        if (image.width !== first.width || image.height !== first.height) {
            accept(
                'error',
                `Kernel '${spec.name}' keeps the image size: port '${port.name}' is ${image.width} x ${image.height} but '${ports[0].name}' is ${first.width} x ${first.height}.`,
                {
                    node: port,
                    property: 'type',
                    data: { code: Codes.kernelImageSize },
                },
            );
        }
    }
}

function checkDependency(box: Box, spec: KernelSpec | undefined, accept: ValidationAcceptor): void {
    const depends = boxDepends(box);
    const split = boxSplit(box) ?? 'none';
    if (split === 'rows' && !depends) {
        accept(
            'error',
            `Box '${box.name}' splits into row slices but does not say what a slice depends on (depends pointwise | halo N | whole).`,
            {
                node: box.members.find(isSplitSetting)!,
                data: { code: Codes.kernelDependency },
            },
        );
        return;
    }
    if (!depends) return;
    if (split === 'rows' && depends.dependency === 'none') {
        accept('error', `'depends none' means the box is not splittable; use 'split none' or give its dependency.`, {
            node: depends,
            data: { code: Codes.kernelDependency },
        });
    }
    const needed = kernelHaloRows(box);
    const given = depends.dependency === 'halo' ? (depends.halo ?? 0) : depends.dependency === 'whole' ? Infinity : 0;
    if (split === 'rows' && needed > given) {
        accept(
            'error',
            `Kernel '${spec!.name}' reads ${needed} row(s) around each output row: use 'depends halo ${needed}' or more.`,
            {
                node: depends,
                data: { code: Codes.kernelDependency },
            },
        );
    }
}

export const boxChecks: ValidationChecks<ChainAstType> = {
    Box: (box, accept) => {
        if (box.name === undefined) return; // a syntax error; its diagnostic says enough
        const name = boxKernelName(box);
        if (!name) {
            accept('error', `Box '${box.name}' has no kernel (one of ${[...KERNELS.keys()].join(', ')}).`, {
                node: box,
                property: 'name',
                data: { code: Codes.missingKernel },
            });
            return;
        }
        const spec = KERNELS.get(name);
        const kernel = boxKernel(box);
        if (!spec) {
            const suggestions = closeNames(name, KERNELS.keys());
            const hint = suggestions.length > 0 ? `did you mean ${quotedAlternatives(suggestions)}? ` : '';
            accept('error', `Unknown kernel '${name}'; ${hint}known kernels: ${[...KERNELS.keys()].join(', ')}.`, {
                node: kernel ?? box,
                property: 'name',
                data: { code: Codes.unknownKernel, suggestions },
            });
        } else {
            if (kernel) checkKernelArguments(kernel, spec, accept);
            checkKernelPorts(box, spec, accept);
            checkImageSizes(box, spec, accept);
        }
        if (kernelConflictsWithSource(kernel?.name, !!boxSource(box))) {
            accept(
                'error',
                `Box '${box.name}' is a periodic source but its kernel is '${name}'; a source box has kernel source (or none).`,
                {
                    node: boxSource(box)!,
                    data: { code: Codes.conflictingKernel },
                },
            );
        }
        checkDependency(box, spec, accept);
        const cost = boxCost(box);
        const costNs = durationNs(cost);
        if (cost && costNs.ok && costNs.value <= 0n) {
            accept('error', 'A cost must be positive.', { node: cost, data: { code: Codes.nonPositiveCost } });
        }
        const source = boxSource(box);
        if (source?.period) {
            const period = durationNs(source.period);
            if (period.ok && period.value <= 0n) {
                accept('error', 'A source period must be positive.', {
                    node: source.period,
                    data: { code: Codes.nonPositivePeriod },
                });
            }
        }
    },
    Duration: (duration, accept) => {
        if (duration.value === undefined || duration.unit === undefined) return; // a syntax error
        const ns = durationNs(duration);
        if (!ns.ok) accept('error', ns.reason + '.', { node: duration, data: { code: Codes.badQuantity } });
    },
    Size: (size, accept) => {
        if (size.value === undefined || size.unit === undefined) return; // a syntax error
        const bytes = sizeBytes(size);
        if (!bytes.ok) accept('error', bytes.reason + '.', { node: size, data: { code: Codes.badQuantity } });
        else if (bytes.value <= 0n)
            accept('error', 'A size must be positive.', { node: size, data: { code: Codes.badQuantity } });
    },
    ImageType: (image, accept) => {
        if (image.width !== undefined && !(image.width > 0))
            accept('error', 'Image width must be positive.', {
                node: image,
                property: 'width',
                data: { code: Codes.imageSize },
            });
        if (image.height !== undefined && !(image.height > 0))
            accept('error', 'Image height must be positive.', {
                node: image,
                property: 'height',
                data: { code: Codes.imageSize },
            });
        if (image.pixel && !PIXEL_TYPES.has(image.pixel)) {
            const suggestions = closeNames(image.pixel, PIXEL_TYPES.keys());
            const hint = suggestions.length > 0 ? `did you mean ${quotedAlternatives(suggestions)}? ` : '';
            accept(
                'error',
                `Unknown pixel type '${image.pixel}'; ${hint}known: ${[...PIXEL_TYPES.keys()].join(', ')}.`,
                {
                    node: image,
                    property: 'pixel',
                    data: { code: Codes.unknownPixelType, suggestions },
                },
            );
        }
    },
    Kernel: (kernel, accept) => {
        for (const [index, arg] of kernel.args.entries()) {
            if (arg !== undefined && !parseDecimal(arg))
                accept('error', `'${arg}' is not a number.`, {
                    node: kernel,
                    property: 'args',
                    index,
                    data: { code: Codes.kernelParameters },
                });
        }
    },
};
