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

/** The longest message line the CLI prints: a message quotes a short prefix of a long value, never all of it. */
export const MAX_MESSAGE_LINE = 1000;
/**
 * A quoted value long enough to drown its message (`--memory 'yyyy...'`, 100,000 characters): the opening quote
 * starts a word and the closing one ends it, so prose between two quoted values is never taken for one.
 */
const LONG_QUOTE = /(?<=^|[\s(=:,[])'([^'\n]{80,})'(?=$|[\s),.;:\]])/g;

/**
 * A message for stderr: control characters escaped, a long quoted value cut to its first 40 characters, and any line
 * still above MAX_MESSAGE_LINE cut there (issue 17: `--threads 1000000` printed a 7.9 MB line).
 */
export function readableMessage(text: string, oneLine = false): string {
    return escapeControls(text, oneLine)
        .split('\n')
        .map(line => {
            const short = line.replace(
                LONG_QUOTE,
                (_, value: string) => `'${value.slice(0, 40)}...' (${value.length} characters)`,
            );
            return short.length > MAX_MESSAGE_LINE
                ? `${short.slice(0, MAX_MESSAGE_LINE)}... (${short.length} characters)`
                : short;
        })
        .join('\n');
}
