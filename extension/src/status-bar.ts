/** The backend's state in the status bar: idle, busy with what, or failed (click: the log). */
import * as vscode from 'vscode';

export class BackendStatus implements vscode.Disposable {
    private readonly item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    private busy = 0;

    constructor() {
        this.item.command = 'chainlab.showLog';
        this.idle();
        this.item.show();
    }

    idle(): void {
        this.item.text = '$(pulse) chainlab';
        this.item.tooltip = 'chainlab backend: ready';
        this.item.backgroundColor = undefined;
    }

    /** Marks the backend busy while `work` runs. */
    async around<T>(what: string, work: () => Promise<T>): Promise<T> {
        this.busy++;
        this.item.text = `$(sync~spin) chainlab: ${what}`;
        this.item.tooltip = `chainlab backend: ${what}`;
        try {
            const result = await work();
            if (--this.busy === 0) this.idle();
            return result;
        } catch (error) {
            if (--this.busy === 0) this.failed((error as Error).message);
            throw error;
        }
    }

    failed(message: string): void {
        this.item.text = '$(error) chainlab';
        this.item.tooltip = `chainlab backend: ${message}`;
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
    }

    dispose(): void {
        this.item.dispose();
    }
}
