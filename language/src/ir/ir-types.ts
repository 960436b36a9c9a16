/**
 * The chainlab IR: the versioned JSON form of a validated model, the only thing
 * that crosses into the Python backend. Times are integer nanoseconds, sizes
 * integer bytes. The types are generated from the contract's
 * contract/schemas/ir.schema.json; change the schema and bump its version.
 */
export { IR_VERSION } from '@chainlab/contract';
export type {
    IrBox,
    IrChain,
    IrCounter,
    IrDependency,
    IrEtp,
    IrImage,
    IrLoc,
    IrModel,
    IrPlatform,
    IrPortRef,
    IrPtts,
    IrRequirement,
    IrTarget,
    IrThreshold,
    IrThrottle,
} from '@chainlab/contract';
