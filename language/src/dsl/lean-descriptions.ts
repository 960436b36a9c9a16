/**
 * Descriptions of named elements (what scopes hold and references point to) in less memory. Langium 3.5 makes
 * each one an object literal with a getter: V8 gives every such object its own dictionary of properties, a
 * closure and a context (~600 bytes), and the description computes its element's range at once (a Range and two
 * Positions cached on the syntax node) although only go-to-definition and symbol searches ask for it. Here a
 * description is a class instance with its segments and path computed when asked and then kept.
 */
import {
    AstUtils,
    CstUtils,
    DefaultAstNodeDescriptionProvider,
    type AstNode,
    type AstNodeDescription,
    type AstNodeLocator,
    type DocumentSegment,
    type LangiumCoreServices,
    type LangiumDocument,
    type NameProvider,
    type URI,
} from 'langium';

/** What a description needs to compute its lazy parts: shared by all descriptions of one language. */
interface DescriptionSources {
    readonly locator: AstNodeLocator;
    readonly names: NameProvider;
}

class LeanDescription implements AstNodeDescription {
    private nameAt?: DocumentSegment;
    private selectionAt?: DocumentSegment;
    private pathOf?: string;

    constructor(
        private readonly sources: DescriptionSources,
        readonly node: AstNode,
        readonly name: string,
        readonly type: string,
        readonly documentUri: URI,
    ) {}

    get nameSegment(): DocumentSegment | undefined {
        const named = this.sources.names.getNameNode(this.node) ?? this.node.$cstNode;
        return (this.nameAt ??= CstUtils.toDocumentSegment(named));
    }

    get selectionSegment(): DocumentSegment | undefined {
        return (this.selectionAt ??= CstUtils.toDocumentSegment(this.node.$cstNode));
    }

    get path(): string {
        return (this.pathOf ??= this.sources.locator.getAstNodePath(this.node));
    }
}

export class LeanAstNodeDescriptionProvider extends DefaultAstNodeDescriptionProvider {
    private readonly sources: DescriptionSources;

    constructor(services: LangiumCoreServices) {
        super(services);
        this.sources = { locator: services.workspace.AstNodeLocator, names: services.references.NameProvider };
    }

    override createDescription(
        node: AstNode,
        name: string | undefined,
        document?: LangiumDocument,
    ): AstNodeDescription {
        const named = name ?? this.sources.names.getName(node);
        // as Langium's: a description without a name is a bug in the caller, said with the element's path
        if (!named) throw new Error(`Node at path ${this.sources.locator.getAstNodePath(node)} has no name.`);
        const uri = (document ?? AstUtils.getDocument(node)).uri;
        return new LeanDescription(this.sources, node, named, node.$type, uri);
    }
}
