/**
 * Scoping: a .chain file is self-contained (no cross-file exports, so two
 * sample files may both define `Detector`), and `inst.port` resolves the port
 * among the ports of the instance's box.
 */
import {
    DefaultScopeComputation, DefaultScopeProvider, EMPTY_SCOPE,
    type AstNodeDescription, type LangiumDocument, type ReferenceInfo, type Scope,
} from 'langium';
import { isPortRef } from '../generated/ast.js';
import { boxPorts } from './model-util.js';

export class ChainScopeComputation extends DefaultScopeComputation {
    override async computeExports(_document: LangiumDocument): Promise<AstNodeDescription[]> {
        return [];
    }
}

export class ChainScopeProvider extends DefaultScopeProvider {
    override getScope(context: ReferenceInfo): Scope {
        if (isPortRef(context.container) && context.property === 'port') {
            const box = context.container.instance?.ref?.box?.ref;
            return box ? this.createScopeForNodes(boxPorts(box)) : EMPTY_SCOPE;
        }
        return super.getScope(context);
    }
}
