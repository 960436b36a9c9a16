/**
 * Model text in terminal output (issue 17 F26): a string in a model could clear the screen or retitle the terminal
 * through an escape sequence, or reorder a line with bidirectional controls. Every CLI message goes through this.
 */

// C0 controls and DEL, C1 controls, and the bidirectional embeddings, overrides and isolates
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_AND_LINES = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escape(char: string): string {
    const code = char.charCodeAt(0);
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    // \u for all but C0, which JSON.stringify has escaped already: JSON output stays JSON with the same value
    return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with control characters written as `\x1b`, `\u202e`, ...; newlines and tabs kept unless `oneLine`. */
export function escapeControls(text: string, oneLine = false): string {
    return text.replace(oneLine ? CONTROLS_AND_LINES : CONTROLS, escape);
}
