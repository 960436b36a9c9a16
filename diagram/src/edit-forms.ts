/**
 * The two small forms of diagram editing, plain HTML over the diagram (a webview has no prompt()): the new
 * name of an instance (F2) and a new box type (name, ports, kernel). Each calls back with what was typed;
 * Escape or Cancel closes it. Colours come from VS Code's theme variables, with fallbacks for the plain page.
 */

const FORM_STYLE = [
    'position: fixed',
    'top: 40px',
    'right: 16px',
    'z-index: 10',
    'display: flex',
    'flex-direction: column',
    'gap: 6px',
    'padding: 10px',
    'font: 12px var(--vscode-font-family, sans-serif)',
    'color: var(--vscode-editorWidget-foreground, #333)',
    'background: var(--vscode-editorWidget-background, #f3f3f3)',
    'border: 1px solid var(--vscode-editorWidget-border, #c8c8c8)',
    'box-shadow: 0 2px 8px var(--vscode-widget-shadow, rgba(0,0,0,.25))',
].join(';');

const INPUT_STYLE = [
    'color: var(--vscode-input-foreground, #000)',
    'background: var(--vscode-input-background, #fff)',
    'border: 1px solid var(--vscode-input-border, #bbb)',
    'padding: 2px 4px',
].join(';');

function field(form: HTMLFormElement, label: string, name: string, value = '', placeholder = ''): HTMLInputElement {
    const input = Object.assign(document.createElement('input'), { name, value, placeholder });
    input.setAttribute('style', INPUT_STYLE);
    input.spellcheck = false;
    const row = document.createElement('label');
    row.setAttribute('style', 'display: flex; gap: 6px; align-items: center; justify-content: space-between');
    row.append(label, input);
    form.append(row);
    return input;
}

function openForm(className: string, title: string, submit: string): { form: HTMLFormElement; close: () => void } {
    document.querySelector(`form.${className}`)?.remove(); // one at a time
    const form = document.createElement('form');
    form.className = `chainlab-edit-form ${className}`;
    form.setAttribute('style', FORM_STYLE);
    const heading = Object.assign(document.createElement('strong'), { textContent: title });
    form.append(heading);
    const close = () => form.remove();
    form.addEventListener('keydown', event => {
        event.stopPropagation(); // the diagram's key listeners (Delete, F2) are not for the form
        if (event.key === 'Escape') close();
    });
    queueMicrotask(() => {
        const buttons = document.createElement('div');
        buttons.setAttribute('style', 'display: flex; gap: 6px; justify-content: flex-end');
        const ok = Object.assign(document.createElement('button'), { type: 'submit', textContent: submit });
        const cancel = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Cancel' });
        cancel.addEventListener('click', close);
        buttons.append(cancel, ok);
        form.append(buttons);
    });
    document.body.append(form);
    return { form, close };
}

/**
 * Puts a form just below the node it is about (above it when there is no room), inside the panel: the name
 * is edited where the eye already is, not in the panel's corner.
 */
export function placeAt(form: HTMLElement, anchor: DOMRect): void {
    const { width, height } = form.getBoundingClientRect();
    const gap = 4;
    const below = anchor.bottom + gap;
    const top = below + height <= window.innerHeight ? below : anchor.top - gap - height;
    const clamp = (v: number, max: number) => Math.max(gap, Math.min(v, max - gap));
    form.style.left = `${clamp(anchor.left, window.innerWidth - width)}px`;
    form.style.top = `${clamp(top, window.innerHeight - height)}px`;
    form.style.right = 'auto';
}

/** Asks for an instance's new name at `anchor` (its node); `done` gets it (unless cancelled or unchanged). */
export function renameForm(instance: string, done: (newName: string) => void, anchor?: DOMRect): HTMLFormElement {
    const { form, close } = openForm('chainlab-rename', `Rename ${instance}`, 'Rename');
    const input = field(form, 'new name', 'newName', instance);
    // the buttons come a microtask later: place the form once it has its full size
    if (anchor) queueMicrotask(() => queueMicrotask(() => placeAt(form, anchor)));
    form.addEventListener('submit', event => {
        event.preventDefault();
        const name = input.value.trim();
        close();
        if (name && name !== instance) done(name);
    });
    input.focus();
    input.select();
    return form;
}

export interface NewBox {
    name: string;
    inputs: Array<{ name: string; image: string }>;
    outputs: Array<{ name: string; image: string }>;
    kernel: string;
}

/** `i: Frame, j: Frame` → ports (the server checks the names again). */
export function parsePorts(text: string): Array<{ name: string; image: string }> {
    return text
        .split(',')
        .map(p => p.trim())
        .filter(Boolean)
        .map(p => {
            const [name = '', image = ''] = p.split(':').map(s => s.trim());
            return { name, image };
        });
}

/** Asks for a new box type: its name, input and output ports (`name: Image, ...`) and kernel. */
export function boxTypeForm(image: string, done: (box: NewBox) => void): HTMLFormElement {
    const { form, close } = openForm('chainlab-new-box', 'New box type', 'Add box');
    const name = field(form, 'name', 'name', '', 'Blur');
    const inputs = field(form, 'inputs', 'inputs', `i: ${image}`, `i: ${image}, j: ${image}`);
    const outputs = field(form, 'outputs', 'outputs', `o: ${image}`, `o: ${image}`);
    const kernel = field(form, 'kernel', 'kernel', 'copy', 'gain(2)');
    form.addEventListener('submit', event => {
        event.preventDefault();
        if (!name.value.trim()) return void name.focus();
        close();
        done({
            name: name.value.trim(),
            inputs: parsePorts(inputs.value),
            outputs: parsePorts(outputs.value),
            kernel: kernel.value.trim(),
        });
    });
    name.focus();
    return form;
}
