/** The diagrams' plans, made by the backend's plan/make (the same method the CLI's `plan` uses). */
import type { PlanSource } from '../diagram-server/plan-view.js';
import type { SharedBackend } from './shared-backend.js';

export function backendPlanSource(backend: SharedBackend): PlanSource {
    return {
        plan: (ir, chain, heuristic) =>
            backend
                .client()
                .request('plan/make', { ir, chain, ...(heuristic ? { heuristic } : {}) }, { timeoutMs: 60_000 }),
    };
}
