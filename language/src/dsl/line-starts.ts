/** Line and column from an offset, by a binary search in the offsets where lines start (made once per text). */
import type { Position } from 'vscode-languageserver';

/** The offsets at which the lines of `text` start (chevrotain's and LSP's line terminators: \n, \r\n, \r). */
export function lineStartsOf(text: string): Uint32Array {
    const found = [0];
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) found.push(i + 1);
    }
    return Uint32Array.from(found);
}

/** The zero-based line and column (UTF-16 units, as LSP counts) of `offset`. */
export function positionFrom(starts: Uint32Array, offset: number): Position {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (starts[middle] <= offset) low = middle;
        else high = middle - 1;
    }
    return { line: low, character: offset - starts[low] };
}
