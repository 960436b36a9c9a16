/** ELK in this thread that tells the test about every graph it lays out (the drawings and the node shapes). */
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import type { ElkFactory } from 'sprotty-elk/lib/elk-layout.js';
import { elkFactory } from '../../src/diagram-server/chainlab-layout.js';

export function watchedElkFactory(seen: (graph: ElkNode) => void): ElkFactory {
    return () => {
        const elk = elkFactory();
        const layout = elk.layout.bind(elk);
        elk.layout = (graph, options) => {
            seen(graph);
            return layout(graph, options);
        };
        return elk;
    };
}
