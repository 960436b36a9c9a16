/**
 * sprotty's JSX factory (`svg` from sprotty/lib/lib/jsx, used by views.tsx) builds snabbdom VNodes; sprotty declares
 * the intrinsic elements but not the element type, which left every JSX expression typed `any`.
 */
import type { VNode } from 'snabbdom';

declare global {
    namespace JSX {
        type Element = VNode;
    }
}
