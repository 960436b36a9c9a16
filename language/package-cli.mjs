// Packs the `chainlab` CLI as an installable npm package, chainlab-cli-<version>.tgz beside this file:
// src/cli in one ESM bundle with every dependency inside (langium, commander, ajv, the @chainlab/contract workspace,
// which is on no registry), so that the packed package.json has no dependencies and installs without a registry.
//   node package-cli.mjs     (scripts/setup.mjs runs it)
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const stage = join(root, 'dist', 'cli-package'); // what is packed: package.json, README.md, bin/chainlab.js
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf-8'));

/** The package's own manifest: a bin and nothing to install besides. */
const manifest = {
    name: 'chainlab-cli',
    version,
    description:
        'chainlab command line: check, analyse, plan, generate and run soft real-time image-processing chains (.chain files)',
    type: 'module',
    bin: { chainlab: 'bin/chainlab.js' },
    files: ['bin/', 'README.md'],
    engines: { node: '>=20.19' },
    license: 'MIT',
    keywords: ['real-time', 'latency', 'dsl', 'langium', 'chainlab'],
};

async function bundle() {
    await esbuild.build({
        absWorkingDir: root,
        // the entry is the bin itself: one file that runs the CLI
        stdin: {
            contents: "import { main } from './src/cli/main.ts';\nawait main(process.argv);\n",
            resolveDir: root,
            sourcefile: 'chainlab-cli.ts',
            loader: 'ts',
        },
        outfile: join(stage, 'bin', 'chainlab.js'),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        // CommonJS dependencies inside an ESM bundle still call require('fs') and the like: give them one
        banner: {
            js: "#!/usr/bin/env node\nimport { createRequire as __chainlabRequire } from 'node:module';\nconst require = __chainlabRequire(import.meta.url);",
        },
        legalComments: 'eof', // the bundled packages' licence notices stay in the file
        logLevel: 'warning',
    });
}

function pack() {
    const done = spawnSync('npm', ['pack', '--silent', '--pack-destination', root], { cwd: stage, encoding: 'utf-8' });
    if (done.status !== 0) throw new Error(`npm pack failed:\n${done.stdout}${done.stderr}`);
    return done.stdout.trim().split('\n').pop();
}

const started = Date.now();
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
await bundle();
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(root, 'cli-package', 'README.md'), join(stage, 'README.md'));
const file = pack();
console.log(`package-cli: ${file} in ${Date.now() - started} ms`);
