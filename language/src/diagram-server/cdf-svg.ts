/**
 * A small SVG of a distribution's CDF (hovers): [ms, probability] points, a p99 marker, no script. Fixed colours
 * for the text hover's image; the classes let the diagrams' popups, which inline it, take the theme's colours.
 */
export function cdfSvg(distribution: Array<[number, number]>, p99?: number, width = 180, height = 60): string {
    if (!distribution.length) return '';
    const points = [...distribution].sort((a, b) => a[0] - b[0]);
    const min = points[0][0],
        span = points[points.length - 1][0] - min || 1;
    const total = points.reduce((s, [, p]) => s + p, 0) || 1;
    const x = (v: number) => (4 + ((v - min) / span) * (width - 8)).toFixed(1);
    const y = (c: number) => (height - 4 - c * (height - 8)).toFixed(1);
    let cum = 0;
    const path = points
        .map(([v, p], i) => {
            const from = cum;
            cum += p / total;
            return `${i ? 'L' : 'M'}${x(v)},${y(from)} L${x(v)},${y(cum)}`;
        })
        .join(' ');
    const marker =
        p99 !== undefined
            ? `<line class="cdf-p99" x1="${x(p99)}" y1="2" x2="${x(p99)}" y2="${height - 2}" stroke="#c62828" stroke-dasharray="3 2"/>`
            : '';
    return (
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
        `<rect class="cdf-frame" x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" fill="#fff" stroke="#c7cbd6"/>${marker}` +
        `<path class="cdf-line" d="${path}" fill="none" stroke="#0a66d8" stroke-width="1.5"/></svg>`
    );
}

/** The same CDF as a markdown image (a data URI: no file, no network). */
export function cdfMarkdownImage(distribution: Array<[number, number]>, p99?: number): string {
    const svg = cdfSvg(distribution, p99);
    return svg ? `![CDF](data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')})` : '';
}
