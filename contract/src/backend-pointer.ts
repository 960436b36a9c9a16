/**
 * Where the VS Code extension names the backend environment it set up (a BackendPointer), for the CLI to find
 * outside VS Code: the writer and the reader take the path from here. Plain string work (no node:path), as the
 * webviews bundle this package too.
 */

/** `${XDG_DATA_HOME:-HOME/.local/share}/chainlab/backend.json`, given the environment and the home folder. */
export function backendPointerPath(env: { XDG_DATA_HOME?: string }, home: string): string {
    const data = env.XDG_DATA_HOME?.trim() || `${home.replace(/\/+$/, '')}/.local/share`;
    return `${data.replace(/\/+$/, '')}/chainlab/backend.json`;
}
