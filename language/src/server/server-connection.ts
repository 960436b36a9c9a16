/**
 * The language server's connection. Over stdio the input goes through a FrameValidator first (one bad frame must not
 * make the server deaf, issue 17 F18); the other transports (`--node-ipc`, `--socket=N`, `--pipe`) are read by
 * vscode-languageserver from the command line as before.
 */
import { inspect } from 'node:util';
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node.js';
import { FrameValidator } from './frame-validator.js';

export function createServerConnection(): Connection {
    if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all);
    const connection: Connection = createConnection(
        ProposedFeatures.all,
        process.stdin.pipe(new FrameValidator(reason => connection.console.warn(`chain language server: ${reason}`))),
        process.stdout,
    );
    routeConsole(connection);
    return connection;
}

/**
 * Given streams, vscode-languageserver no longer redirects `console` as it does for `--stdio`: a console.log
 * anywhere (Langium logs some errors so) would write into the protocol stream. Send it to the client's log instead.
 */
function routeConsole(connection: Connection): void {
    const text = (args: unknown[]) => args.map(a => (typeof a === 'string' ? a : inspect(a))).join(' ');
    console.log = (...args: unknown[]) => connection.console.log(text(args));
    console.info = (...args: unknown[]) => connection.console.info(text(args));
    console.debug = (...args: unknown[]) => connection.console.log(text(args));
    console.warn = (...args: unknown[]) => connection.console.warn(text(args));
    console.error = (...args: unknown[]) => connection.console.error(text(args));
}
