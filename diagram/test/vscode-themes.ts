/**
 * The theme variables VS Code gives a webview (values of its default Light Modern, Dark Modern and Dark High
 * Contrast themes, VS Code 1.100) and the body class of the theme kind: the test page sets them so the
 * diagram is drawn as in the workbench.
 */
export interface Theme {
    bodyClass: string;
    vars: Record<string, string>;
}

export const THEMES: Record<'light' | 'dark' | 'high-contrast', Theme> = {
    light: {
        bodyClass: 'vscode-light',
        vars: {
            'editor-background': '#ffffff',
            'editor-foreground': '#3b3b3b',
            foreground: '#3b3b3b',
            'editorWidget-background': '#f8f8f8',
            'editorWidget-border': '#e5e5e5',
            focusBorder: '#005fb8',
            'button-background': '#005fb8',
            'button-foreground': '#ffffff',
            'button-border': '#0000001a',
            'button-secondaryBackground': '#e5e5e5',
            'button-secondaryForeground': '#3b3b3b',
            'button-secondaryHoverBackground': '#cccccc',
            'dropdown-background': '#ffffff',
            'dropdown-foreground': '#3b3b3b',
            'dropdown-border': '#cecece',
            'charts-blue': '#1a85ff',
            'inputValidation-errorBackground': '#f2dede',
            'inputValidation-errorBorder': '#be1100',
        },
    },
    dark: {
        bodyClass: 'vscode-dark',
        vars: {
            'editor-background': '#1f1f1f',
            'editor-foreground': '#cccccc',
            foreground: '#cccccc',
            'editorWidget-background': '#202020',
            'editorWidget-border': '#313131',
            focusBorder: '#0078d4',
            'button-background': '#0078d4',
            'button-foreground': '#ffffff',
            'button-border': '#ffffff12',
            'button-secondaryBackground': '#313131',
            'button-secondaryForeground': '#cccccc',
            'button-secondaryHoverBackground': '#3c3c3c',
            'dropdown-background': '#313131',
            'dropdown-foreground': '#cccccc',
            'dropdown-border': '#3c3c3c',
            'charts-blue': '#3794ff',
            'inputValidation-errorBackground': '#5a1d1d',
            'inputValidation-errorBorder': '#be1100',
        },
    },
    'high-contrast': {
        bodyClass: 'vscode-high-contrast',
        vars: {
            'editor-background': '#000000',
            'editor-foreground': '#ffffff',
            foreground: '#ffffff',
            'editorWidget-background': '#0c141f',
            'editorWidget-border': '#6fc3df',
            contrastBorder: '#6fc3df',
            focusBorder: '#f38518',
            'button-background': '#000000',
            'button-foreground': '#ffffff',
            'button-border': '#6fc3df',
            'button-secondaryBackground': '#000000',
            'button-secondaryForeground': '#ffffff',
            'dropdown-background': '#000000',
            'dropdown-foreground': '#ffffff',
            'dropdown-border': '#6fc3df',
            'charts-blue': '#3794ff',
            'inputValidation-errorBackground': '#000000',
            'inputValidation-errorBorder': '#f48771',
        },
    },
};

/** Puts a theme on the page, as VS Code does on a webview's body. */
export function themeScript(theme: Theme): string {
    const css = Object.entries(theme.vars)
        .map(([k, v]) => `--vscode-${k}: ${v};`)
        .join(' ');
    return `document.body.className = '${theme.bodyClass}'; document.documentElement.setAttribute('style', '${css}');`;
}
