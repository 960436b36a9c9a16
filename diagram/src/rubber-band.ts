/**
 * The line that follows the pointer from the output port a connection starts at (drag, or click then click), so
 * that the user sees what is being connected. Drawn in an overlay over the page, outside the diagram's model:
 * it is feedback, not part of the diagram.
 */
const SVG = 'http://www.w3.org/2000/svg';

export class RubberBand {
    private svg?: SVGSVGElement;
    private line?: SVGLineElement;

    start(x: number, y: number): void {
        this.stop();
        this.svg = document.createElementNS(SVG, 'svg');
        this.svg.classList.add('chainlab-rubber-band');
        this.line = document.createElementNS(SVG, 'line');
        for (const [k, v] of [
            ['x1', x],
            ['y1', y],
            ['x2', x],
            ['y2', y],
        ] as const)
            this.line.setAttribute(k, String(v));
        this.svg.append(this.line);
        document.body.append(this.svg);
    }

    move(x: number, y: number): void {
        this.line?.setAttribute('x2', String(x));
        this.line?.setAttribute('y2', String(y));
    }

    stop(): void {
        this.svg?.remove();
        this.svg = this.line = undefined;
    }
}
