/**
 * Backends that speak another contract than this client, as executables BackendClient.start() (or
 * $CHAINLAB_PYTHON) can run: the real backend told it speaks 0.9.0, and a fake that predates the
 * handshake (it ignores the client's version and names none) and records every method it is asked; and one that
 * agrees on the contract but answers with a bare NaN. The fakes share one framing loop (framedBackend).
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repo = join(__dirname, '..', '..', '..');
export const venvPython = join(repo, 'backend', '.venv', 'bin', 'python');

function executable(name: string, text: string): string {
    const file = join(mkdtempSync(join(tmpdir(), 'chainlab-contract-')), name);
    writeFileSync(file, text);
    chmodSync(file, 0o755);
    return file;
}

/** The real backend, patched at start to speak contract `version`. */
export function backendSpeaking(version: string): string {
    return executable(
        'backend',
        `#!/bin/sh\nexec ${venvPython} -c "import chainlab.rpc.contract as c; c.CONTRACT_VERSION = '${version}'; ` +
            `from chainlab.rpc.server import main; main()"\n`,
    );
}

/**
 * A fake backend in node: reads Content-Length frames from stdin, runs `onMessage` (a statement, `message` in
 * scope), ends on `exit`, and answers each request with the JSON text that `reply` (an expression) gives.
 */
function framedBackend(name: string, reply: string, onMessage = '', head = ''): string {
    return executable(
        name,
        `#!${process.execPath}
${head}let buffer = Buffer.alloc(0);
process.stdin.on('data', chunk => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
        const end = buffer.indexOf('\\r\\n\\r\\n');
        if (end < 0) return;
        const length = Number(/Content-Length: (\\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
        if (buffer.length < end + 4 + length) return;
        const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
        buffer = buffer.subarray(end + 4 + length);
        ${onMessage}
        if (message.method === 'exit') process.exit(0);
        if (message.id === undefined) continue;
        const body = ${reply};
        process.stdout.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
    }
});
`,
    );
}

/** A backend from before the contract: answers backend/version with no contract version; logs each method to `log`. */
export function preContractBackend(log: string): string {
    const version = "{ version: '0.0.1', ir_version: '1.0', methods: ['backend/version', 'ptts/analyze'] }";
    return framedBackend(
        'old-backend',
        `JSON.stringify({ jsonrpc: '2.0', id: message.id, result: message.method === 'backend/version' ? ${version} : {} })`,
        `appendFileSync(${JSON.stringify(log)}, message.method + '\\n');`,
        "const { appendFileSync } = require('node:fs');\n",
    );
}

/** A backend that agrees on contract `contract`, then answers every request with a bare NaN (as json.dumps does). */
export function nanBackend(contract: string): string {
    const version = JSON.stringify({ contract_version: contract });
    return framedBackend(
        'nan-backend',
        `message.method === 'backend/version'
            ? JSON.stringify({ jsonrpc: '2.0', id: message.id, result: ${version} })
            : '{"jsonrpc": "2.0", "id": ' + message.id + ', "result": {"p99_ms": NaN}}'`,
    );
}
