/**
 * Descriptions of named elements (what scopes hold and references point to) in less memory. Langium 3.5 makes
 * each one an object literal with a getter: V8 gives every such object its own dictionary of properties, a
 * closure and a context (~600 bytes), and the description computes its element's range at once (a Range and two
 * Positions cached on the syntax node) although only go-to-definition and symbol searches ask for it. Here a
 * description is a class instance of four fields, with its type, segments and path computed when asked (a model near
 * the size limit has hundreds of thousands of descriptions and few are ever asked).
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
    constructor(
        private readonly sources: DescriptionSources,
        readonly node: AstNode,
        readonly name: string,
        readonly documentUri: URI,
    ) {}

    get type(): string {
        return this.node.$type;
    }

    get nameSegment(): DocumentSegment | undefined {
        return CstUtils.toDocumentSegment(this.sources.names.getNameNode(this.node) ?? this.node.$cstNode);
    }

    get selectionSegment(): DocumentSegment | undefined {
        return CstUtils.toDocumentSegment(this.node.$cstNode);
    }

    get path(): string {
        return this.sources.locator.getAstNodePath(this.node);
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
        return new LeanDescription(this.sources, node, named, uri);
    }
}
