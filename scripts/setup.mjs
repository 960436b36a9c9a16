#!/usr/bin/env node
/**
 * The project's installer (`npm run setup`; `npm start`, `npm test` and
 * `npm run package` run it first). Installs and builds whatever is missing,
 * idempotently, so that they work on a fresh machine: Debian packages (when
 * root), npm dependencies (with the lint tools: ESLint, typescript-eslint,
 * Prettier, dependency-cruiser), the contract (TypeScript generated from
 * contract/schemas), the language build, the CLI's npm package, report.html's
 * script (into the backend's package), the Python venv
 * with the backend, the backend's wheel and sdist with a wheelhouse of its
 * dependencies (offline installs), the extension's .vsix and the C build. Each
 * step keeps a content-hash stamp and is skipped when its inputs did not
 * change, so a second run takes a few seconds.
 *
 * Plain Node with no dependencies: it runs before anything is installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampDir = join(root, '.setup-stamps');
const quiet = process.argv.includes('--quiet');
const started = Date.now();

/**
 * Debian packages and the command that proves each is there. An `optional` one (the reason says what needs it) is
 * only reported when it is missing and this is not root: setup goes on without it.
 */
const DEBIAN_PACKAGES = [
    { pkg: 'cmake', command: 'cmake' },
    { pkg: 'gcc', command: 'gcc' },
    { pkg: 'make', command: 'make' },
    { pkg: 'openssh-server', check: () => existsSync('/usr/sbin/sshd') }, // the SSH lab host of the deploy tests
    { pkg: 'openssh-client', command: 'ssh-keygen' },
    { pkg: 'iproute2', command: 'ip' },
    // the browser of the diagram and IDE tests (playwright-core)
    { pkg: 'chromium', check: () => existsSync('/usr/bin/chromium') },
    // code-server (the real VS Code of the extension's end-to-end tests) compiles native modules against these
    { pkg: 'g++', command: 'g++' },
    { pkg: 'pkg-config', command: 'pkg-config' },
    { pkg: 'libkrb5-dev', check: () => existsSync('/usr/include/gssapi/gssapi.h') },
    { pkg: 'libxkbfile-dev', check: () => existsSync('/usr/include/X11/extensions/XKBfile.h') },
    { pkg: 'libsecret-1-dev', check: () => existsSync('/usr/include/libsecret-1') },
    { pkg: 'ripgrep', command: 'rg' }, // seeds @vscode/ripgrep's download cache (github.com is not reachable)
    {
        pkg: 'python3-venv',
        check: () => run(pythonCommand(), ['-c', 'import venv, ensurepip'], { check: false }).status === 0,
    },
    // clang-format 14 exactly (Debian 12's): the C format check of tests/lint.test.ts (runtime-c/, bench/)
    { pkg: 'clang-format-14', command: 'clang-format-14', optional: 'the C format check of tests/lint.test.ts' },
];

function log(message) {
    if (!quiet) process.stderr.write(`setup: ${message}\n`);
}

function run(command, args, { cwd = root, check = true, env = process.env, capture = true } = {}) {
    const result = spawnSync(command, args, { cwd, env, encoding: 'utf-8', stdio: capture ? 'pipe' : 'inherit' });
    if (check && result.status !== 0) {
        const output = capture ? `\n${(result.stdout ?? '') + (result.stderr ?? '')}`.trimEnd() : '';
        process.stderr.write(
            `setup: '${command} ${args.join(' ')}' failed (exit ${result.status ?? result.error?.message})${output}\n`,
        );
        process.exit(1);
    }
    return result;
}

function hasCommand(command) {
    return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Hash of files (and whole directories) that a step depends on. */
function hashOf(paths) {
    const hash = createHash('sha256');
    const visit = path => {
        if (!existsSync(path)) return;
        const stat = statSync(path);
        if (stat.isDirectory()) {
            for (const entry of readdirSync(path).sort()) {
                if (['node_modules', 'out', 'dist', 'build', '.venv', '__pycache__', 'generated'].includes(entry))
                    continue;
                visit(join(path, entry));
            }
        } else {
            hash.update(relative(root, path));
            hash.update(readFileSync(path));
        }
    };
    for (const path of paths) visit(join(root, path));
    return hash.digest('hex');
}

function upToDate(step, hash, output) {
    const file = join(stampDir, step);
    return existsSync(file) && readFileSync(file, 'utf-8') === hash && (!output || existsSync(join(root, output)));
}

function stamp(step, hash) {
    mkdirSync(stampDir, { recursive: true });
    writeFileSync(join(stampDir, step), hash);
}

let pythonCache;
/** A Python ≥ 3.11 on PATH. */
function pythonCommand() {
    if (pythonCache) return pythonCache;
    for (const candidate of ['python3.13', 'python3.12', 'python3.11', 'python3']) {
        if (!hasCommand(candidate)) continue;
        const version = spawnSync(candidate, ['-c', 'import sys; print(sys.version_info >= (3, 11))'], {
            encoding: 'utf-8',
        });
        if (version.stdout?.trim() === 'True') return (pythonCache = candidate);
    }
    return (pythonCache = 'python3');
}

function debianPackages() {
    let missing = DEBIAN_PACKAGES.filter(p => (p.command ? !hasCommand(p.command) : !p.check()));
    if (missing.length === 0) return;
    if (process.getuid?.() !== 0 || !hasCommand('apt-get')) {
        for (const p of missing.filter(p => p.optional)) {
            process.stderr.write(
                `setup: ${p.pkg} is missing, skipped (not root): ${p.optional} needs it; install it with 'sudo apt-get install ${p.pkg}'\n`,
            );
        }
        missing = missing.filter(p => !p.optional);
        if (missing.length === 0) return;
        const required = missing.map(p => p.pkg);
        process.stderr.write(
            `setup: missing system packages: ${required.join(' ')} (install them, e.g. 'sudo apt-get install ${required.join(' ')}')\n`,
        );
        process.exit(1);
    }
    const names = missing.map(p => p.pkg);
    log(`installing Debian packages: ${names.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    run('apt-get', ['update', '-q'], { env });
    run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...names], { env });
}

function npmDependencies() {
    const hash = hashOf([
        'package.json',
        'package-lock.json',
        'contract/package.json',
        'language/package.json',
        'diagram/package.json',
        'extension/package.json',
    ]);
    if (upToDate('npm', hash, 'node_modules/.package-lock.json')) return;
    log('installing npm dependencies (npm ci)');
    run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
    stamp('npm', hash);
}

/** What the contract's generated TypeScript and its build depend on (the language, diagram and extension embed it) */
const CONTRACT_INPUTS = [
    'contract/schemas',
    'contract/generate.mjs',
    'contract/src',
    'contract/tsconfig.json',
    'contract/package.json',
];

/** The contract: TypeScript generated from its JSON Schemas (like Langium's AST), compiled to contract/out. */
function contractBuild() {
    const hash = hashOf(CONTRACT_INPUTS);
    if (upToDate('contract', hash, 'contract/out/index.js')) return;
    log('generating and building the contract (contract/schemas → TypeScript)');
    run('node', ['generate.mjs'], { cwd: join(root, 'contract') });
    run(join(root, 'node_modules', '.bin', 'tsc'), ['-b', 'tsconfig.json'], { cwd: join(root, 'contract') });
    stamp('contract', hash);
}

function languageBuild() {
    const hash = hashOf([
        'language/src',
        'language/tsconfig.json',
        'language/langium-config.json',
        ...CONTRACT_INPUTS,
        'language/esbuild.mjs',
    ]);
    if (upToDate('language', hash, 'language/out/cli/main.js')) return;
    log('building the language (langium generate, tsc)');
    const bin = join(root, 'node_modules', '.bin');
    run(join(bin, 'langium'), ['generate'], { cwd: join(root, 'language') });
    run(join(bin, 'tsc'), ['-b', 'tsconfig.json'], { cwd: join(root, 'language') });
    if (existsSync(join(root, 'language', 'esbuild.mjs')))
        run('node', ['esbuild.mjs'], { cwd: join(root, 'language') });
    stamp('language', hash);
}

/** The CLI as an npm package (language/chainlab-cli-VERSION.tgz): one bundle, no dependencies (package-cli.mjs). */
function cliPackage() {
    const { version } = JSON.parse(readFileSync(join(root, 'language', 'package.json'), 'utf-8'));
    const hash = hashOf([
        'language/src',
        'language/package.json',
        'language/package-cli.mjs',
        'language/cli-package',
        ...CONTRACT_INPUTS,
    ]);
    if (upToDate('cli-package', hash, `language/chainlab-cli-${version}.tgz`)) return;
    log(`packing the CLI (language/chainlab-cli-${version}.tgz)`);
    run('node', ['package-cli.mjs'], { cwd: join(root, 'language') });
    stamp('cli-package', hash);
}

function diagramBuild() {
    const hash = hashOf(['diagram/src', 'diagram/css', 'diagram/esbuild.mjs', ...CONTRACT_INPUTS]);
    if (upToDate('diagram', hash, 'diagram/dist/webview.js')) return;
    log('bundling the diagram webview (esbuild)');
    run('node', ['esbuild.mjs'], { cwd: join(root, 'diagram') });
    stamp('diagram', hash);
}

/**
 * report.html's script and style (the editor's plot view, bundled) into the backend's package: before the backend's
 * tests and its wheel, which carry them.
 */
function reportPage() {
    const hash = hashOf([
        'extension/webview',
        'extension/src',
        'extension/esbuild.mjs',
        'package-lock.json',
        ...CONTRACT_INPUTS,
    ]);
    if (upToDate('report-page', hash, 'backend/chainlab/resources/report/report.js')) return;
    log("bundling report.html's script (backend/chainlab/resources/report)");
    run('node', ['esbuild.mjs', 'report'], { cwd: join(root, 'extension') });
    stamp('report-page', hash);
}

function extensionBuild() {
    const hash = hashOf([
        'extension/src',
        'extension/webview',
        'extension/package.json',
        'extension/esbuild.mjs',
        'extension/.vscodeignore',
        'extension/language-configuration.json',
        'extension/walkthrough',
        'extension/media',
        'extension/README.md',
        'extension/CHANGELOG.md',
        'LICENSE',
        // the example workspace the walkthrough creates is copied from these
        'samples/xray.chain',
        'samples/chains/fig3-5.chain',
        'samples/ptts/thesis-fig5-2.chain',
        'language/src',
        'language/textmate.mjs',
        'diagram/src',
        'diagram/css',
        ...CONTRACT_INPUTS,
        // the .vsix carries the backend's wheel (extension/esbuild.mjs copies it): hashed by content, as hashOf
        // skips folders named dist
        ...backendWheels(),
    ]);
    if (upToDate('extension', hash, 'extension/chainlab.vsix')) return;
    log('building and packaging the VS Code extension (extension/chainlab.vsix)');
    run('npm', ['run', 'package', '--silent'], { cwd: join(root, 'extension') });
    stamp('extension', hash);
}

/**
 * code-server 4.100.3 (VS Code 1.100.3 for Node 20) from the npm registry, in its own package so that its
 * ~300 MB stay out of the workspaces. Its install builds native modules and would download ripgrep from
 * github.com: the Debian rg is put where @vscode/ripgrep looks for a cached download.
 */
function codeServer() {
    const dir = join(root, 'tests', 'vscode');
    const hash = hashOf(['tests/vscode/package.json', 'tests/vscode/package-lock.json']);
    if (upToDate('code-server', hash, 'tests/vscode/node_modules/.bin/code-server')) return;
    log('installing code-server for the VS Code end-to-end tests (npm ci in tests/vscode, a few minutes)');
    const tmp = join(dir, '.tmp');
    const cache = join(tmp, 'vscode-ripgrep-cache-1.15.11');
    mkdirSync(cache, { recursive: true });
    const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf-8' }).stdout.trim();
    run('tar', ['czf', join(cache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz'), '-C', dirname(rg), 'rg']);
    const env = { ...process.env, TMPDIR: tmp, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' };
    run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env });
    stamp('code-server', hash);
}

function pythonBackend() {
    const venv = join(root, 'backend', '.venv');
    const python = join(venv, 'bin', 'python');
    const hash = hashOf(['backend/pyproject.toml']) + pythonCommand();
    if (upToDate('python', hash, 'backend/.venv/bin/python')) return;
    if (!existsSync(python)) {
        log(`creating the Python virtual environment (${pythonCommand()})`);
        run(pythonCommand(), ['-m', 'venv', venv]);
    }
    log('installing the backend and its pinned dependencies into backend/.venv');
    run(python, [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '-e',
        `${join(root, 'backend')}[test,package]`,
    ]);
    // the distribution was called 'chainlab' before it became 'chainlab-backend': one editable install, not two
    run(python, ['-m', 'pip', 'uninstall', '--yes', '--quiet', '--disable-pip-version-check', 'chainlab'], {
        check: false,
    });
    stamp('python', hash);
}

function backendVersion() {
    const pyproject = readFileSync(join(root, 'backend', 'pyproject.toml'), 'utf-8');
    return /^version = "([^"]+)"/m.exec(pyproject)[1];
}

/** The built wheels in backend/dist (one, unless someone put more there), as paths for hashOf. */
function backendWheels() {
    const dist = join(root, 'backend', 'dist');
    if (!existsSync(dist)) return [];
    return readdirSync(dist)
        .filter(name => name.endsWith('.whl'))
        .sort()
        .map(name => `backend/dist/${name}`);
}

/**
 * The backend as a wheel and an sdist in backend/dist (chainlab_backend-VERSION-py3-none-any.whl): the package with
 * the C runtime's and the throttler's sources (through the links resources/runtime-c and contract/). Built with the
 * venv's pinned build and setuptools, offline; SOURCE_DATE_EPOCH makes the same sources give the same wheel.
 */
function backendPackage() {
    const hash = hashOf([
        'backend/pyproject.toml',
        'backend/README.md',
        'backend/chainlab',
        'runtime-c',
        'contract/schemas',
    ]);
    const wheel = `backend/dist/chainlab_backend-${backendVersion()}-py3-none-any.whl`;
    if (upToDate('backend-package', hash, wheel)) return;
    log(`building the backend's wheel and sdist (${wheel})`);
    const dist = join(root, 'backend', 'dist');
    rmSync(dist, { recursive: true, force: true });
    run(join(root, 'backend', '.venv', 'bin', 'python'), ['-m', 'build', '--no-isolation', '--outdir', dist, '.'], {
        cwd: join(root, 'backend'),
        env: { ...process.env, SOURCE_DATE_EPOCH: '315532800' },
    });
    stamp('backend-package', hash);
}

/**
 * backend/wheelhouse: a wheel of every runtime dependency of the backend (and theirs), from PyPI, so that
 * `pip install --no-index --find-links backend/wheelhouse backend/dist/chainlab_backend-*.whl` needs no network.
 * The wheels are for this machine's Python and platform.
 */
function backendWheelhouse() {
    const python = join(root, 'backend', '.venv', 'bin', 'python');
    const hash = hashOf(['backend/pyproject.toml']) + pythonCommand();
    if (upToDate('wheelhouse', hash, 'backend/wheelhouse')) return;
    log("collecting wheels of the backend's dependencies (backend/wheelhouse)");
    const read =
        "import sys, tomllib; print('\\n'.join(tomllib.load(open(sys.argv[1], 'rb'))['project']['dependencies']))";
    const requirements = run(python, ['-c', read, join(root, 'backend', 'pyproject.toml')])
        .stdout.trim()
        .split('\n');
    const wheelhouse = join(root, 'backend', 'wheelhouse');
    rmSync(wheelhouse, { recursive: true, force: true });
    run(python, [
        '-m',
        'pip',
        'wheel',
        '--quiet',
        '--disable-pip-version-check',
        '--wheel-dir',
        wheelhouse,
        ...requirements,
    ]);
    stamp('wheelhouse', hash);
}

/**
 * tests/theia: an Eclipse Theia browser application (one @theia version set, pinned by its lock file) for the
 * Theia suite: npm ci, then `theia build`. Offline: no puppeteer browser download, node headers from /usr/include.
 */
function theiaApp() {
    const dir = join(root, 'tests', 'theia');
    const hash = hashOf(['tests/theia/package.json', 'tests/theia/package-lock.json']);
    if (upToDate('theia', hash, 'tests/theia/lib/backend/main.js')) return;
    log('installing and building Eclipse Theia for its end-to-end tests (npm ci and theia build in tests/theia)');
    const tmp = join(dir, '.tmp');
    mkdirSync(tmp, { recursive: true });
    const env = {
        ...process.env,
        TMPDIR: tmp,
        PUPPETEER_SKIP_DOWNLOAD: 'true',
        npm_config_nodedir: '/usr',
        npm_config_unsafe_perm: 'true',
        npm_config_yes: 'true',
        NODE_OPTIONS: '--max-old-space-size=4096',
    };
    run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env });
    run('npm', ['run', 'build', '--silent'], { cwd: dir, env });
    stamp('theia', hash);
}

function cBuild() {
    const source = join(root, 'runtime-c');
    if (!existsSync(join(source, 'CMakeLists.txt'))) return;
    const hash = hashOf(['runtime-c']);
    if (upToDate('c', hash, 'runtime-c/build/CMakeCache.txt')) return;
    log('building the C runtime (cmake)');
    run('cmake', ['-S', source, '-B', join(source, 'build'), '-DCMAKE_BUILD_TYPE=Release']);
    run('cmake', ['--build', join(source, 'build'), '--parallel', '2']);
    stamp('c', hash);
}

debianPackages();
npmDependencies();
contractBuild();
languageBuild();
cliPackage();
diagramBuild();
reportPage(); // before the backend's wheel and tests: both need it
pythonBackend();
backendPackage();
backendWheelhouse();
extensionBuild(); // after backendPackage: the .vsix carries the wheel
cBuild();
codeServer();
theiaApp();
log(`ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
