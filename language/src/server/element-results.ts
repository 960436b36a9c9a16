/** The latest result of some kind per document and named element (a chain's run, a ptts's sweep). */
export class ElementResults<T> {
    private readonly results = new Map<string, T>();

    set(uri: string, element: string, result: T): void {
        this.results.set(`${uri}#${element}`, result);
    }

    get(uri: string, element: string): T | undefined {
        return this.results.get(`${uri}#${element}`);
    }

    /** Whether any element of the document has one (code actions skip the AST walk otherwise). */
    has(uri: string): boolean {
        for (const key of this.results.keys()) if (key.startsWith(`${uri}#`)) return true;
        return false;
    }
}
