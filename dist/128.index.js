export const id = 128;
export const ids = [128];
export const modules = {

/***/ 8128:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  run: () => (/* binding */ run)
});

// EXTERNAL MODULE: ./src/report/markdown.ts
var markdown = __webpack_require__(4285);
;// CONCATENATED MODULE: ./src/report/catch-up-summary.ts

/** Above this many, the up-to-date packages are folded away. */
const UP_TO_DATE_SHOWN = 20;
/**
 * The job summary section that says, per package, why an apply runs it (or does not): changed since
 * the commit last applied, touched by the push, added since the watermark, deleted; held after a failed
 * tree; up to date; not applied and why.
 */
function renderCatchUpSummary(s) {
    const lines = [`### Packages to apply · ${(0,markdown/* code */.aY)(s.head.slice(0, 7))}`, ''];
    if (s.run.length === 0)
        lines.push('Nothing to apply: the cluster already runs this commit.', '');
    else {
        lines.push('| package | why it runs |', '|---|---|');
        for (const r of s.run)
            lines.push(`| ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(r.path))}${r.removed ? ' (deleted)' : ''} | ${(0,markdown/* cell */.Hn)((0,markdown/* escapeText */.X1)(r.reason))} |`);
        lines.push('');
    }
    if (s.held.length > 0) {
        lines.push('**Held** (a failed tree is not retried):', '');
        for (const h of s.held)
            lines.push(`- ${(0,markdown/* code */.aY)(h.path)}: ${(0,markdown/* escapeText */.X1)(h.reason)}`);
        lines.push('');
    }
    if (s.skipped.length > 0) {
        lines.push('**Not applied**:', '');
        for (const h of s.skipped)
            lines.push(`- ${(0,markdown/* code */.aY)(h.path)}: ${(0,markdown/* escapeText */.X1)(h.reason)}`);
        lines.push('');
    }
    if (s.upToDate.length > 0) {
        const items = s.upToDate.map((u) => `${(0,markdown/* code */.aY)(u.path)} (${(0,markdown/* escapeText */.X1)(u.reason)})`);
        if (items.length <= UP_TO_DATE_SHOWN)
            lines.push(`**Up to date**: ${items.join(', ')}`, '');
        else
            lines.push('<details><summary>', `${items.length} packages up to date`, '</summary>', '', items.map((i) => `- ${i}`).join('\n'), '', '</details>', '');
    }
    return `${lines.join('\n')}\n`;
}
/** The same as log lines: one per package. */
function catchUpLogLines(s) {
    return [
        ...s.run.map((r) => `${r.path}: runs: ${r.reason}`),
        ...s.upToDate.map((r) => `${r.path}: up to date: ${r.reason}`),
        ...s.skipped.map((r) => `${r.path}: not applied: ${r.reason}`),
    ];
}

// EXTERNAL MODULE: ./src/common/object-id.ts
var object_id = __webpack_require__(9110);
;// CONCATENATED MODULE: ./src/apply/skip-reason.ts

const policyName = {
    strict: 'MustMatch',
    adopt: 'AdoptIfNoInventory',
    'force-adopt': 'AdoptAll',
};
/** `inventory 1a2b (ResourceGroup prod/web)`, or `inventory 1a2b` when its ResourceGroup was not found. */
function describeOwner(owner) {
    const rg = owner.resourceGroup;
    return `inventory ${owner.id}${rg ? ` (ResourceGroup ${rg.namespace}/${rg.name})` : ''}`;
}
/** The line kpt prints after `skipped:` (cli-utils' filter errors), with who owns the object added. */
function skipMessage(reason) {
    switch (reason.type) {
        case 'inventory-policy': {
            const head = `inventory policy prevented actuation (strategy: ${reason.strategy}, status: ${reason.match}, policy: ${policyName[reason.policy]})`;
            if (reason.owner)
                return `${head}: owned by another inventory: ${describeOwner(reason.owner)}`;
            return `${head}: ${reason.strategy === 'Apply' ? 'not owned by any inventory' : 'not owned by this inventory'}`;
        }
        case 'dependency':
            return reason.cause === 'scheduled for delete'
                ? `dependency scheduled for delete: ${(0,object_id/* formatInventoryId */.RP)(reason.dependency)}`
                : `dependency ${reason.cause}: ${(0,object_id/* formatInventoryId */.RP)(reason.dependency)}`;
        case 'dependent':
            return `dependent ${reason.cause}: ${(0,object_id/* formatInventoryId */.RP)(reason.dependent)}`;
        case 'in-use':
            return reason.message;
        case 'annotation':
            return `annotation prevents deletion ("${reason.key}": "${reason.value}")`;
        case 'just-applied':
            return `object just applied (UID: "${reason.uid}")`;
        case 'cancelled':
            return 'not started: the run was cancelled';
    }
}
/**
 * A skip the user did not ask for: the object was meant to be applied (or deleted) and was not, because
 * the inventory policy or a dependency stood in the way. These fail a run (exit 3) unless allow-skipped.
 * Skips the user chose (update-strategy skip, keep/detach/orphan, a Namespace still in use) do not.
 */
function isBlockingSkip(reason) {
    return reason?.type === 'inventory-policy' || reason?.type === 'dependency' || reason?.type === 'dependent';
}
/** What to do about a blocking skip, in one sentence; undefined for other skips. */
function skipFix(reason) {
    switch (reason.type) {
        case 'inventory-policy': {
            if (reason.strategy === 'Delete') {
                return reason.owner
                    ? `another package took it over (${describeOwner(reason.owner)}): leave it to that package, or delete it with inventory-policy: force-adopt`
                    : 'it no longer carries this inventory: delete it by hand, or run with inventory-policy: adopt';
            }
            if (!reason.owner) {
                return 'set inventory-policy: adopt (--inventory-policy adopt) to take over objects no inventory owns';
            }
            const rg = reason.owner.resourceGroup;
            const destroy = rg
                ? `destroy the package that owns it (ResourceGroup ${rg.namespace}/${rg.name})`
                : `destroy the package that owns it (inventory ${reason.owner.id})`;
            return `${destroy}, or take it over with inventory-policy: force-adopt (--inventory-policy force-adopt)`;
        }
        case 'dependency':
            return reason.cause === 'scheduled for delete'
                ? `keep ${(0,object_id/* shortName */.EU)(reason.dependency)} in the package, or drop the depends-on`
                : `fix ${(0,object_id/* shortName */.EU)(reason.dependency)} first (it is listed too)`;
        case 'dependent':
            return `fix ${(0,object_id/* shortName */.EU)(reason.dependent)} first (it is listed too)`;
        default:
            return undefined;
    }
}
/** The full explanation of a blocking skip: why, and the fix (what reports print). */
function blockedExplanation(reason) {
    const fix = skipFix(reason);
    return fix ? `${skipMessage(reason)}. Fix: ${fix}` : skipMessage(reason);
}

;// CONCATENATED MODULE: ./src/apply/run-result.ts

/**
 * Where an outcome keeps what the run decided for the object (a dry run's decision, or the one a real run
 * carried out) with the objects it was decided on. The preview, the plan digest and drift are views of it.
 * A symbol key: a result serialised as JSON never carries these objects, which hold Secret values.
 */
const DecidedOn = Symbol('decidedOn');
function countOutcomes(objects) {
    const count = (pred) => objects.filter(pred).length;
    return {
        created: count((o) => o.action === 'created'),
        configured: count((o) => o.action === 'configured'),
        unchanged: count((o) => o.action === 'unchanged'),
        pruned: count((o) => o.action === 'pruned' || o.action === 'deleted'),
        skipped: count((o) => o.action === 'skipped' || o.action === 'abandoned'),
        failed: count((o) => failed(o, { allowSkipped: true })),
    };
}
/** An object whose apply or delete failed, or whose reconcile failed or timed out. */
function isFailedOutcome(o) {
    return o.action === 'failed' || o.reconcile === 'Failed' || o.reconcile === 'Timeout';
}
/**
 * An object the run meant to apply or delete and did not, for a reason the user did not choose: the
 * inventory policy (another inventory owns it, or none does under strict), or a dependency that failed or
 * was itself blocked. Such objects fail the run (exit 3) unless allow-skipped.
 */
function isBlockedOutcome(o) {
    return o.action === 'skipped' && isBlockingSkip(o.skip);
}
/**
 * Whether the run did not do what was asked for this object: its apply or delete failed, its reconcile
 * failed or timed out, or (unless `allowSkipped`) it was blocked (`isBlockedOutcome`). The one answer to
 * "did it fail" that the engine, the exit code, the deploy record and every report use.
 */
function failed(o, opts = {}) {
    return isFailedOutcome(o) || (!opts.allowSkipped && isBlockedOutcome(o));
}
/** Whether a finished run failed: some object `failed`. */
function runFailed(objects, allowSkipped) {
    return objects.some((o) => failed(o, { allowSkipped }));
}
/** The result of a run that got to the end (or was cancelled part-way and saved its inventory). */
function finishedResult(objects, startedAt, cancelled, failed) {
    const durationMs = Date.now() - startedAt;
    if (cancelled)
        return {
            outcome: 'error',
            error: 'cancelled: stopped starting new work and saved the inventory',
            objects,
            durationMs,
        };
    return { outcome: failed ? 'failed' : 'success', objects, durationMs };
}
/** The result of a run stopped by a fatal error (reported once as an error event). */
function fatalResult(emit, err, objects, startedAt) {
    const message = err.message;
    emit({ type: 'error', error: message });
    return { outcome: 'error', error: message, objects, durationMs: Date.now() - startedAt };
}

// EXTERNAL MODULE: ./node_modules/@actions/exec/lib/exec.js + 3 modules
var exec = __webpack_require__(1260);
;// CONCATENATED MODULE: ./src/changes/git.ts

/** Git's multi-line messages as one log line. */
const oneLine = (text) => text.trim().replace(/\s*\n\s*/g, '; ');
/** A failed git command, with the command line and git's own message so the log says what to fix. */
class GitError extends Error {
    args;
    result;
    repoDir;
    constructor(args, result, repoDir) {
        super(`git ${args.join(' ')} failed in ${repoDir} (exit ${result.code}): ${oneLine(result.stderr) || oneLine(result.stdout) || 'no output'}`);
        this.args = args;
        this.result = result;
        this.repoDir = repoDir;
        this.name = 'GitError';
    }
}
/** The environment git runs with: no terminal prompt, no askpass helper, messages in English. */
function gitEnv(env = process.env) {
    const out = {};
    for (const [k, v] of Object.entries(env))
        if (v !== undefined)
            out[k] = v;
    return { ...out, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never', LC_ALL: 'C' };
}
/** Runs git in `repoDir`. Throws a GitError on a non-zero exit unless `allowFail`. */
async function git(repoDir, args, opts = {}) {
    let result;
    try {
        const r = await (0,exec/* getExecOutput */.H)('git', [...args], {
            cwd: repoDir,
            env: gitEnv(),
            silent: true,
            ignoreReturnCode: true,
        });
        result = { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
    }
    catch (err) {
        throw new Error(`could not run git ${args.join(' ')} in ${repoDir}: ${err.message}`);
    }
    if (result.code !== 0 && !opts.allowFail)
        throw new GitError(args, result, repoDir);
    return result;
}

;// CONCATENATED MODULE: ./src/changes/fetch-commits.ts

/** 40 (SHA-1) or 64 (SHA-256) zeros: the `before` of a push that created the branch. */
function isZeroSha(sha) {
    return sha !== undefined && /^0+$/.test(sha) && (sha.length === 40 || sha.length === 64);
}
/** True when the commit object is in the local repository (a depth-1 checkout lacks older ones). */
async function hasCommit(repoDir, sha) {
    return (await git(repoDir, ['cat-file', '-e', `${sha}^{commit}`], { allowFail: true })).code === 0;
}
/** True for a clone made with `--depth` (what actions/checkout does by default). */
async function isShallow(repoDir) {
    const r = await git(repoDir, ['rev-parse', '--is-shallow-repository'], { allowFail: true });
    return r.stdout.trim() === 'true';
}
/**
 * Makes sure every commit in `shas` is present, fetching the missing ones by SHA from the remote
 * (`git fetch --no-tags --depth=N origin <sha>...`; GitHub serves any reachable commit, including a pull
 * request's head). Returns the error text instead of throwing, because callers have another way to find
 * the change (the compare API) and must say why they used it.
 */
async function ensureCommits(repoDir, shas, opts = {}) {
    const missing = [];
    for (const sha of new Set(shas))
        if (!(await hasCommit(repoDir, sha)))
            missing.push(sha);
    if (missing.length === 0)
        return { ok: true, fetched: [] };
    const args = [
        'fetch',
        '--no-tags',
        '--quiet',
        `--depth=${opts.depth ?? 1}`,
        opts.remote ?? 'origin',
        ...missing,
    ];
    const r = await git(repoDir, args, { allowFail: true });
    for (const sha of missing) {
        if (!(await hasCommit(repoDir, sha))) {
            return {
                ok: false,
                fetched: [],
                error: `could not fetch commit ${sha} from ${opts.remote ?? 'origin'} (git ${args.join(' ')}: ${oneLine(r.stderr) || `exit ${r.code}`})`,
            };
        }
    }
    return { ok: true, fetched: missing };
}
/** The merge base of two commits, or undefined when the local history does not reach one. */
async function mergeBase(repoDir, a, b) {
    const r = await git(repoDir, ['merge-base', a, b], { allowFail: true });
    return r.code === 0 ? r.stdout.trim() || undefined : undefined;
}
/**
 * Fetches more history of `a` and `b` until their merge base is local: depth 50, then 500, then the whole
 * history. A three-dot diff (what a pull request shows) needs it; a depth-1 checkout never has it.
 */
async function deepenUntilMergeBase(repoDir, a, b, opts = {}) {
    const found = await mergeBase(repoDir, a, b);
    if (found || !(await isShallow(repoDir)))
        return found;
    const remote = opts.remote ?? 'origin';
    for (const step of [['--depth=50'], ['--depth=500'], ['--unshallow']]) {
        await git(repoDir, ['fetch', '--no-tags', '--quiet', ...step, remote, a, b], { allowFail: true });
        const base = await mergeBase(repoDir, a, b);
        if (base || !(await isShallow(repoDir)))
            return base;
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/changes/commits-in-range.ts


/** The most commits a range lists: each costs GitHub a request to find its pull request. */
const RANGE_COMMITS_MAX = 100;
async function isAncestor(repoDir, older, newer) {
    const r = await git(repoDir, ['merge-base', '--is-ancestor', older, newer], { allowFail: true });
    return r.code === 0;
}
/**
 * Fetches history of `head` until `base` is one of its ancestors (depth 50, 500, then all): a depth-1
 * checkout has neither the commits in between nor `base`. False when `base` is not an ancestor of `head`
 * (a force push rewrote the branch) or the remote cannot serve it.
 */
async function reachBase(repoDir, base, head, opts = {}) {
    const present = await ensureCommits(repoDir, [base, head], opts);
    if (!present.ok)
        return false;
    if (await isAncestor(repoDir, base, head))
        return true;
    const remote = opts.remote ?? 'origin';
    for (const step of [['--depth=50'], ['--depth=500'], ['--unshallow']]) {
        if (!(await isShallow(repoDir)))
            return false;
        await git(repoDir, ['fetch', '--no-tags', '--quiet', ...step, remote, head], { allowFail: true });
        if (await isAncestor(repoDir, base, head))
            return true;
    }
    return false;
}
/**
 * The commits of `base..head` on the branch's first-parent line that changed something under `dirs`,
 * newest first: the merges (or squashed and rebased commits) that brought each change to the branch,
 * which is what GitHub associates a merged pull request with. At most RANGE_COMMITS_MAX.
 */
async function commitsTouching(repoDir, base, head, dirs, opts = {}) {
    if (base === head)
        return { commits: [], truncated: false };
    if (!(await reachBase(repoDir, base, head, opts)))
        return {
            unknown: `commit ${base.slice(0, 7)} is not in the history of ${head.slice(0, 7)} that git could fetch`,
        };
    const paths = dirs.includes('.') ? [] : ['--', ...dirs];
    const r = await git(repoDir, ['rev-list', '--first-parent', `--max-count=${RANGE_COMMITS_MAX + 1}`, `${base}..${head}`, ...paths], { allowFail: true });
    if (r.code !== 0)
        return { unknown: `git rev-list ${base}..${head}: ${oneLine(r.stderr)}` };
    const commits = r.stdout.split('\n').filter(Boolean);
    return { commits: commits.slice(0, RANGE_COMMITS_MAX), truncated: commits.length > RANGE_COMMITS_MAX };
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/common/constants.ts
var constants = __webpack_require__(8952);
// EXTERNAL MODULE: ./src/common/kube-object.ts
var kube_object = __webpack_require__(4754);
;// CONCATENATED MODULE: ./src/preview/redact.ts


/**
 * Secret values never leave this module: callers get copies whose `data` / `stringData` values are
 * size markers, and annotations that could carry a value (`last-applied-configuration` on a Secret, or any
 * annotation containing a value verbatim or as base64) become `(hidden)`.
 */
const HIDDEN = '(hidden)';
const HIDDEN_CHANGED = '(hidden, changed)';
/**
 * Values shorter than this are not searched for in text: scrubbing every `1` or `abc` out of a log would
 * destroy it while protecting nothing a reader could not guess.
 */
const MIN_SECRET_LENGTH = 4;
/** True for the core `v1` Secret, the only kind whose values we hide. */
function isSecret(obj) {
    return obj !== undefined && obj.apiVersion === 'v1' && obj.kind === 'Secret';
}
/** `(hidden, 21 bytes)`, or `(hidden, 23 bytes, changed)` on the desired side of a changed key. */
function hiddenMarker(bytes, changed = false) {
    const size = bytes === 1 ? '1 byte' : `${bytes} bytes`;
    return changed ? `(hidden, ${size}, changed)` : `(hidden, ${size})`;
}
/** True for a string this module wrote in place of a secret value. */
function isHiddenMarker(value) {
    return typeof value === 'string' && /^\(hidden(, \d+ bytes?)?(, changed)?\)$/.test(value);
}
function asText(value) {
    return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}
/**
 * The bytes each key will hold on the server: `data` is base64, `stringData` is plain text and wins over
 * `data` for the same key (the API server merges it so).
 */
function secretBytes(obj) {
    const out = new Map();
    if (!isSecret(obj))
        return out;
    if ((0,kube_object/* isRecord */.u4)(obj.data)) {
        for (const [key, value] of Object.entries(obj.data))
            out.set(key, Buffer.from(asText(value), 'base64'));
    }
    if ((0,kube_object/* isRecord */.u4)(obj.stringData)) {
        for (const [key, value] of Object.entries(obj.stringData))
            out.set(key, Buffer.from(asText(value), 'utf8'));
    }
    return out;
}
/**
 * Every form in which a Secret's values could show up in text: the base64 of `data`, its decoded text,
 * `stringData` as written, its base64, and both JSON-escaped (as inside `last-applied-configuration`).
 * Longest first, so `scrub` replaces a value before any shorter value it contains.
 */
function collectSecretValues(objs) {
    const found = new Set();
    /** Both forms of one value, or neither: the base64 of `ab` is as guessable as `ab`. */
    const add = (plain, encoded) => {
        if (plain.length < MIN_SECRET_LENGTH)
            return;
        for (const text of [plain, encoded]) {
            found.add(text);
            const escaped = JSON.stringify(text).slice(1, -1);
            if (escaped !== text)
                found.add(escaped);
        }
    };
    for (const obj of objs) {
        if (!isSecret(obj))
            continue;
        if ((0,kube_object/* isRecord */.u4)(obj.data)) {
            for (const value of Object.values(obj.data)) {
                const encoded = asText(value);
                add(Buffer.from(encoded, 'base64').toString('utf8'), encoded);
            }
        }
        if ((0,kube_object/* isRecord */.u4)(obj.stringData)) {
            for (const value of Object.values(obj.stringData)) {
                const plain = asText(value);
                add(plain, Buffer.from(plain, 'utf8').toString('base64'));
            }
        }
    }
    return [...found].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}
/**
 * Replaces every occurrence of any value in `text` with `***`: the last line of defence for log lines and
 * server error messages, which may echo what they were sent. `values` as `collectSecretValues` returns them.
 */
function redact_scrub(text, values) {
    let out = text;
    const ordered = [...values].sort((a, b) => b.length - a.length);
    for (const value of ordered) {
        if (value.length >= MIN_SECRET_LENGTH && out.includes(value))
            out = out.split(value).join('***');
    }
    return out;
}
function containsAny(text, values) {
    return values.some((value) => value.length >= MIN_SECRET_LENGTH && text.includes(value));
}
/**
 * A copy of `obj` whose annotations that embed any of `values` (and, on a Secret, its
 * `last-applied-configuration`) read `(hidden)`; `(hidden, changed)` where `before` had a different value
 * under the same key. Works on any kind: a ConfigMap may copy a Secret's value into an annotation too.
 */
function redactAnnotations(obj, values, before) {
    const copy = (0,kube_object/* cloneJson */.Y7)(obj);
    const annotations = copy.metadata?.annotations;
    if (!(0,kube_object/* isRecord */.u4)(annotations))
        return copy;
    const previous = before?.metadata?.annotations;
    for (const [key, value] of Object.entries(annotations)) {
        const text = asText(value);
        const hide = (key === constants/* Annotations */.rB.LastApplied && isSecret(obj)) || containsAny(text, values);
        if (!hide)
            continue;
        const changed = (0,kube_object/* isRecord */.u4)(previous) && key in previous && asText(previous[key]) !== text;
        annotations[key] = changed ? HIDDEN_CHANGED : HIDDEN;
    }
    return copy;
}
/** Replaces `data`/`stringData` by one `data` map of markers, in the order the keys were written. */
function maskValues(obj, bytes, changedKeys) {
    if (!(0,kube_object/* isRecord */.u4)(obj.data) && !(0,kube_object/* isRecord */.u4)(obj.stringData))
        return;
    const data = {};
    for (const [key, value] of bytes)
        data[key] = hiddenMarker(value.length, changedKeys.has(key));
    delete obj.stringData;
    obj.data = data;
}
function keyChanges(before, after) {
    const changes = [];
    for (const [key, value] of after) {
        const old = before.get(key);
        if (old === undefined)
            changes.push({ key, change: 'added', afterBytes: value.length });
        else {
            const change = old.equals(value) ? 'unchanged' : 'changed';
            changes.push({ key, change, beforeBytes: old.length, afterBytes: value.length });
        }
    }
    for (const [key, value] of before) {
        if (!after.has(key))
            changes.push({ key, change: 'removed', beforeBytes: value.length });
    }
    return changes;
}
/**
 * Redacted copies of a Secret's live and desired states plus what happened to each key, so a preview can
 * say "`password` changed (23 bytes)" without holding the value. `stringData` is folded into `data` on both
 * sides, as the API server does, so a key moved from one to the other with the same value is unchanged.
 * Objects that are not Secrets come back as copies with only their value-bearing annotations hidden;
 * `otherValues` (from `collectSecretValues` over the whole package) extends that to values of other Secrets.
 */
function redactSecretPair(live, desired, otherValues = []) {
    const values = [...collectSecretValues([live, desired]), ...otherValues];
    const before = secretBytes(live);
    const after = secretBytes(desired);
    const keys = isSecret(live) || isSecret(desired) ? keyChanges(before, after) : [];
    const changed = new Set(keys.filter((k) => k.change === 'changed').map((k) => k.key));
    const redact = (obj, bytes, marks, prev) => {
        if (obj === undefined)
            return undefined;
        const copy = redactAnnotations(obj, values, prev);
        if (isSecret(copy))
            maskValues(copy, bytes, marks);
        return copy;
    };
    return {
        live: redact(live, before, new Set()),
        desired: redact(desired, after, changed, live),
        keys,
    };
}

;// CONCATENATED MODULE: ./src/preview/plan-digest.ts




const plan_digest_short = (text) => (0,external_node_crypto_.createHash)('sha256').update(text).digest('hex').slice(0, 12);
/** The hash of a configure: its field changes in path order (before/after are redacted renderings). */
function changesHash(changes) {
    const rows = [...changes]
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .map((c) => [
        c.path,
        c.op,
        c.before ?? null,
        c.after ?? null,
        c.beforeBytes ?? null,
        c.afterBytes ?? null,
    ]);
    return plan_digest_short(JSON.stringify(rows));
}
/** Keys sorted at every level, so the same object always serializes the same. */
function canonical(value) {
    if (Array.isArray(value))
        return value.map(canonical);
    if (value && typeof value === 'object') {
        const out = {};
        for (const k of Object.keys(value).sort())
            out[k] = canonical(value[k]);
        return out;
    }
    return value;
}
/**
 * The hash of a create: the desired object without what the engine adds (owning-inventory) or copies
 * (last-applied), and, for a Secret, each data/stringData value replaced by its length.
 */
function manifestHash(obj) {
    const annotations = { ...(obj.metadata.annotations ?? {}) };
    delete annotations[constants/* Annotations */.rB.OwningInventory];
    delete annotations[constants/* Annotations */.rB.LastApplied];
    const copy = { ...obj, metadata: { ...obj.metadata, annotations } };
    if (isSecret(obj)) {
        for (const field of ['data', 'stringData']) {
            const values = obj[field];
            if (values && typeof values === 'object') {
                copy[field] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v).length]));
            }
        }
    }
    return plan_digest_short(JSON.stringify(canonical(copy)));
}
/** One entry from what the engine knows about an object; `changes` for a configure, `desired` for a create. */
function planEntry(id, action, detail = {}) {
    const key = (0,object_id/* idKey */.T4)(id);
    if (action === 'configure') {
        const changes = detail.changes ?? [];
        return changes.length === 0
            ? { key, action: 'unchanged', hash: '' }
            : { key, action, hash: changesHash(changes) };
    }
    if (action === 'create' && detail.desired)
        return { key, action, hash: manifestHash(detail.desired) };
    return { key, action, hash: '' };
}
/**
 * The plan of a run's preview objects (a preview's, or a pre-flight's before the first write); `desired`
 * holds the package's objects (for the hash of a create).
 */
function planOf(objects, desired) {
    const byKey = new Map(desired.map((o) => [(0,object_id/* idKey */.T4)((0,object_id/* idOf */.TH)(o)), o]));
    return sortPlan(objects.map((o) => planEntry(o.id, o.action, { changes: o.changes, desired: byKey.get((0,object_id/* idKey */.T4)(o.id)) })));
}
function sortPlan(entries) {
    return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
/** One hash over the whole plan (every entry, unchanged ones included). */
function planHash(entries) {
    return (0,external_node_crypto_.createHash)('sha256')
        .update(sortPlan([...entries])
        .map((e) => `${e.action} ${e.hash} ${e.key}`)
        .join('\n'))
        .digest('hex')
        .slice(0, 16);
}
function reviewedPlan(entries, tree) {
    return {
        hash: planHash(entries),
        objects: entries.length,
        changed: entries.filter((e) => e.action !== 'unchanged'),
        ...(tree ? { tree } : {}),
    };
}
/** Compares the plan about to be carried out with the reviewed one. */
function comparePlans(reviewed, now) {
    if (planHash(now) === reviewed.hash)
        return { same: true, differences: [] };
    if (!reviewed.changed) {
        return {
            same: false,
            differences: [],
            note: 'the reviewed plan was too large to list object by object in the comment; its hash differs',
        };
    }
    const before = new Map(reviewed.changed.map((e) => [e.key, e]));
    const differences = [];
    for (const e of now) {
        const r = before.get(e.key);
        before.delete(e.key);
        const reviewedAction = r?.action ?? 'unchanged';
        if (reviewedAction !== e.action || (r && r.hash !== e.hash)) {
            differences.push({
                key: e.key,
                reviewed: reviewedAction,
                now: e.action,
                changesDiffer: reviewedAction === e.action,
            });
        }
    }
    for (const r of before.values())
        differences.push({ key: r.key, reviewed: r.action, now: 'unchanged', changesDiffer: false });
    const note = differences.length === 0
        ? `the set of unchanged objects differs (${reviewed.objects} objects reviewed, ${now.length} now)`
        : undefined;
    differences.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { same: false, differences, ...(note ? { note } : {}) };
}

;// CONCATENATED MODULE: ./src/startup/yaml-module.ts
let loaded;
/**
 * The `yaml` package (source positions, comments-preserving edits, the diff's YAML), ~110 KB of bundle. It is
 * imported on first need, not at start: every async code path that leads to work only it does awaits
 * `loadYaml()` first (a package file the fast reader declines or that has an error, init, migrate, the CRD
 * install, a preview's diff, the plan check), and the synchronous code below them reads it with `yamlLib()`.
 * Loading an ordinary package (Kptfile, resourcegroup.yaml, plain manifests) never imports it.
 */
async function yaml_module_loadYaml() {
    loaded ??= await __webpack_require__.e(/* import() */ 815).then(__webpack_require__.t.bind(__webpack_require__, 8815, 19));
    return loaded;
}
/** The `yaml` package, for synchronous code that runs after an awaited `loadYaml()`. */
function yamlLib() {
    if (!loaded)
        throw new Error('internal error: the yaml package is used before loadYaml() was awaited');
    return loaded;
}
/** Whether the `yaml` package has been imported (to check that the common paths do without it). */
function yamlLoaded() {
    return loaded !== undefined;
}

;// CONCATENATED MODULE: ./src/preview/diff-format.ts
/** How field paths and values are spelled in a preview, where a reviewer reads them in one glance. */
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;
/**
 * `spec.template.spec.containers[0].image`; keys that are not plain identifiers are quoted, so
 * `metadata.labels["app.kubernetes.io/name"]` and `data["tls.crt"]` stay unambiguous.
 */
function formatPath(segments) {
    let out = '';
    for (const seg of segments) {
        if (typeof seg === 'number')
            out += `[${seg}]`;
        else if (PLAIN_KEY.test(seg))
            out += out === '' ? seg : `.${seg}`;
        else
            out += `[${JSON.stringify(seg)}]`;
    }
    return out;
}
/** Longest rendering of a value kept in a FieldChange; the full value is in the YAML diff. */
const SHORT_VALUE_LENGTH = 60;
function clip(text, max) {
    return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
/**
 * A one-line rendering: strings as written (`""` when empty, first line and `…` when multi-line), numbers
 * and booleans as YAML would print them, maps and lists as compact JSON; clipped to 60 characters.
 */
function shortValue(value) {
    if (typeof value === 'string') {
        if (value === '')
            return '""';
        const newline = value.indexOf('\n');
        const firstLine = newline < 0 ? value : `${value.slice(0, newline)} …`;
        return clip(firstLine, SHORT_VALUE_LENGTH);
    }
    if (value === null || value === undefined)
        return 'null';
    if (typeof value === 'object')
        return clip(JSON.stringify(value), SHORT_VALUE_LENGTH);
    return String(value);
}

;// CONCATENATED MODULE: ./src/preview/diff-fields.ts


const OMIT = Symbol('omit');
/** Deep equality of plain JSON data; map key order does not matter, list order does. */
function jsonEqual(a, b) {
    if (a === b)
        return true;
    if (Array.isArray(a) && Array.isArray(b))
        return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
    if ((0,kube_object/* isRecord */.u4)(a) && (0,kube_object/* isRecord */.u4)(b)) {
        const keys = Object.keys(a);
        if (keys.length !== Object.keys(b).length)
            return false;
        return keys.every((k) => k in b && jsonEqual(a[k], b[k]));
    }
    return false;
}
/** Lists whose elements all have a distinct string `name` (containers, env, ports, volumes) match by name. */
function namedList(list) {
    const names = new Map();
    for (const [i, item] of list.entries()) {
        if (!(0,kube_object/* isRecord */.u4)(item) || typeof item.name !== 'string' || names.has(item.name))
            return undefined;
        names.set(item.name, i);
    }
    return names;
}
class Walker {
    reportRemoval;
    changes = [];
    constructor(reportRemoval) {
        this.reportRemoval = reportRemoval;
    }
    add(path, after) {
        this.changes.push({ path: formatPath(path), op: 'add', after: shortValue(after) });
    }
    /** Records a removal when the policy reports it; returns what the live view keeps. */
    remove(path, before) {
        if (!this.reportRemoval(path))
            return OMIT;
        this.changes.push({ path: formatPath(path), op: 'remove', before: shortValue(before) });
        return before;
    }
    compare(live, desired, path) {
        if ((0,kube_object/* isRecord */.u4)(live) && (0,kube_object/* isRecord */.u4)(desired))
            return this.compareMaps(live, desired, path);
        if (Array.isArray(live) && Array.isArray(desired))
            return this.compareLists(live, desired, path);
        return this.compareWhole(live, desired, path);
    }
    compareWhole(live, desired, path) {
        if (!jsonEqual(live, desired)) {
            this.changes.push({
                path: formatPath(path),
                op: 'change',
                before: shortValue(live),
                after: shortValue(desired),
            });
        }
        return live;
    }
    compareMaps(live, desired, path) {
        const view = {};
        for (const [key, value] of Object.entries(desired)) {
            if (key in live)
                view[key] = this.compare(live[key], value, [...path, key]);
            else
                this.add([...path, key], value);
        }
        for (const [key, value] of Object.entries(live)) {
            if (key in desired)
                continue;
            const kept = this.remove([...path, key], value);
            if (kept !== OMIT)
                view[key] = kept;
        }
        return view;
    }
    compareLists(live, desired, path) {
        const liveNames = namedList(live);
        const desiredNames = namedList(desired);
        if (liveNames && desiredNames && (live.length > 0 || desired.length > 0)) {
            return this.compareNamed(live, desired, liveNames, path);
        }
        const allMaps = [...live, ...desired].every(kube_object/* isRecord */.u4);
        if (!allMaps || live.length === 0 || desired.length === 0)
            return this.compareWhole(live, desired, path);
        const view = [];
        desired.forEach((value, i) => {
            if (i < live.length)
                view.push(this.compare(live[i], value, [...path, i]));
            else
                this.add([...path, i], value);
        });
        for (let i = desired.length; i < live.length; i++) {
            const kept = this.remove([...path, i], live[i]);
            if (kept !== OMIT)
                view.push(kept);
        }
        return view;
    }
    compareNamed(live, desired, liveNames, path) {
        const viewByIndex = new Map();
        desired.forEach((value, i) => {
            const at = liveNames.get(value.name);
            if (at === undefined)
                this.add([...path, i], value);
            else
                viewByIndex.set(at, this.compare(live[at], value, [...path, i]));
        });
        const view = [];
        live.forEach((value, i) => {
            const kept = viewByIndex.has(i) ? viewByIndex.get(i) : this.remove([...path, i], value);
            if (kept !== OMIT)
                view.push(kept);
        });
        return view;
    }
}
/**
 * Compares two plain JSON values (already stripped of noise and redacted) and lists the changed paths,
 * deepest path that differs, in the desired object's order with removals after.
 */
function diffFields(live, desired, reportRemoval) {
    const walker = new Walker(reportRemoval);
    const liveView = walker.compare(live, desired, []);
    return { changes: walker.changes, liveView };
}

;// CONCATENATED MODULE: ./src/preview/diff-lines.ts
/**
 * A line diff (Myers' O(ND) algorithm) and its unified rendering. Written here rather than taken from a
 * package because the output format is ours: ` `/`-`/`+` prefixes, no `---`/`+++` headers, and hunks
 * separated by a bare `@@` line, which GitHub's ```diff highlighting shows as a separator.
 */
/** Beyond this many differences the middle is shown as removed-then-added (memory stays ~D²). */
const MAX_EDIT_DISTANCE = 2000;
function commonPrefix(a, b) {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i])
        i++;
    return i;
}
function commonSuffix(a, b, prefix) {
    let i = 0;
    while (i < a.length - prefix && i < b.length - prefix && a[a.length - 1 - i] === b[b.length - 1 - i])
        i++;
    return i;
}
/** Myers' greedy forward search; `trace[d][k + d]` is the furthest x on diagonal k after d edits. */
function myers(a, b) {
    const n = a.length;
    const m = b.length;
    const trace = [];
    for (let d = 0; d <= n + m; d++) {
        if (d > MAX_EDIT_DISTANCE)
            return undefined;
        const prev = trace[d - 1];
        const cur = new Int32Array(2 * d + 1);
        for (let k = -d; k <= d; k += 2) {
            let x;
            if (d === 0)
                x = 0;
            else if (k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]))
                x = prev[k + 1 + d - 1];
            else
                x = prev[k - 1 + d - 1] + 1;
            let y = x - k;
            while (x < n && y < m && a[x] === b[y]) {
                x++;
                y++;
            }
            cur[k + d] = x;
            if (x >= n && y >= m) {
                trace.push(cur);
                return backtrack(a, b, trace, d, k);
            }
        }
        trace.push(cur);
    }
    return [];
}
function backtrack(a, b, trace, end, endK) {
    const ops = [];
    let k = endK;
    let x = trace[end][k + end];
    for (let d = end; d > 0; d--) {
        const prev = trace[d - 1];
        const down = k === -d || (k !== d && prev[k - 1 + d - 1] < prev[k + 1 + d - 1]);
        const prevK = down ? k + 1 : k - 1;
        const prevX = prev[prevK + d - 1];
        const startX = down ? prevX : prevX + 1;
        for (; x > startX; x--)
            ops.push({ op: ' ', line: a[x - 1] });
        if (down)
            ops.push({ op: '+', line: b[prevX - prevK] });
        else
            ops.push({ op: '-', line: a[prevX] });
        x = prevX;
        k = prevK;
    }
    for (; x > 0; x--)
        ops.push({ op: ' ', line: a[x - 1] });
    return ops.reverse();
}
/** Within each run of changes, removals first: how people read a replaced block. */
function groupChanges(ops) {
    const out = [];
    let removed = [];
    let added = [];
    const flush = () => {
        out.push(...removed, ...added);
        removed = [];
        added = [];
    };
    for (const op of ops) {
        if (op.op === ' ') {
            flush();
            out.push(op);
        }
        else
            (op.op === '-' ? removed : added).push(op);
    }
    flush();
    return out;
}
/** Every line of `a` and `b` as kept (` `), removed (`-`) or added (`+`), in order. */
function diffLines(a, b) {
    const prefix = commonPrefix(a, b);
    const suffix = commonSuffix(a, b, prefix);
    const midA = a.slice(prefix, a.length - suffix);
    const midB = b.slice(prefix, b.length - suffix);
    const middle = myers(midA, midB) ?? [
        ...midA.map((line) => ({ op: '-', line })),
        ...midB.map((line) => ({ op: '+', line })),
    ];
    return groupChanges([
        ...a.slice(0, prefix).map((line) => ({ op: ' ', line })),
        ...middle,
        ...a.slice(a.length - suffix).map((line) => ({ op: ' ', line })),
    ]);
}
function splitLines(text) {
    if (text === '')
        return [];
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '')
        lines.pop();
    return lines;
}
/**
 * A unified diff of two texts with `context` unchanged lines around each change; '' when they are equal.
 * Hunks further apart than twice the context are separated by a line `@@`.
 */
function unifiedDiff(before, after, context = 3) {
    const ops = diffLines(splitLines(before), splitLines(after));
    const keep = new Array(ops.length).fill(false);
    ops.forEach((op, i) => {
        if (op.op === ' ')
            return;
        for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++)
            keep[j] = true;
    });
    const out = [];
    let gap = false;
    ops.forEach((op, i) => {
        if (!keep[i]) {
            gap = out.length > 0;
            return;
        }
        if (gap)
            out.push('@@');
        gap = false;
        out.push(op.op + op.line);
    });
    return out.join('\n');
}

;// CONCATENATED MODULE: ./src/preview/strip-noise.ts


/** Metadata the API server writes on every object; a reviewer never asked for any of it. */
const SERVER_METADATA = [
    'managedFields',
    'resourceVersion',
    'generation',
    'uid',
    'creationTimestamp',
    'selfLink',
];
/** Annotations that tools write as a side effect of applying (they would change on every run). */
const NOISY_ANNOTATIONS = [constants/* Annotations */.rB.LastApplied, 'deployment.kubernetes.io/revision'];
/**
 * A copy of `obj` without the fields that change on every write or that controllers own (`status`), so a
 * diff of live against desired shows only what the user's manifest changes. Fields a user can set or see
 * in their manifest (including `deletionGracePeriodSeconds` and `deletionTimestamp`) are kept. An
 * `annotations` map left empty is removed, so "no annotations" and "only noisy annotations" compare equal.
 */
function stripNoise(obj) {
    const copy = (0,kube_object/* cloneJson */.Y7)(obj);
    delete copy.status;
    const meta = copy.metadata;
    if (!(0,kube_object/* isRecord */.u4)(meta))
        return copy;
    for (const field of SERVER_METADATA)
        delete meta[field];
    if ((0,kube_object/* isRecord */.u4)(meta.annotations)) {
        for (const key of NOISY_ANNOTATIONS)
            delete meta.annotations[key];
        if (Object.keys(meta.annotations).length === 0)
            delete meta.annotations;
    }
    return copy;
}

;// CONCATENATED MODULE: ./src/preview/diff.ts






/** Paths under which a field missing from `desired` is always reported as removed. */
function alwaysReported(path) {
    const [first, second] = path;
    if (first === 'data' || first === 'stringData')
        return true;
    return first === 'metadata' && (second === 'labels' || second === 'annotations') && path.length >= 2;
}
function toYaml(value) {
    return yamlLib().stringify(value, { lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
}
function secretChange(key) {
    const ops = { added: 'add', removed: 'remove', changed: 'change' };
    if (key.change === 'unchanged')
        return undefined;
    const change = { path: formatPath(['data', key.key]), op: ops[key.change], redacted: true };
    if (key.beforeBytes !== undefined)
        change.beforeBytes = key.beforeBytes;
    if (key.afterBytes !== undefined)
        change.afterBytes = key.afterBytes;
    return change;
}
function isSecretValuePath(path) {
    return /^(data|stringData)([.[]|$)/.test(path);
}
/** Marks changes whose values were hidden by redaction, and scrubs the rest as a last line of defence. */
function finishChange(change, values) {
    if (isHiddenMarker(change.before) || isHiddenMarker(change.after)) {
        const { before: _before, after: _after, ...rest } = change;
        return { ...rest, redacted: true };
    }
    const out = { ...change };
    if (out.before !== undefined)
        out.before = redact_scrub(out.before, values);
    if (out.after !== undefined)
        out.after = redact_scrub(out.after, values);
    return out;
}
/**
 * What applying `desired` over `live` changes, as field paths and as a unified YAML diff a reviewer can
 * read. Both sides are compared after `stripNoise` and Secret redaction, so neither result ever holds a
 * Secret value: Secret keys are reported with `redacted: true` and their sizes only. `live` undefined
 * means a create: no field changes, and the diff adds every line.
 */
function diffObjects(live, desired, opts = {}) {
    const values = [...collectSecretValues([live, desired]), ...(opts.secretValues ?? [])];
    const pair = redactSecretPair(live && stripNoise(live), stripNoise(desired), values);
    const after = pair.desired;
    if (pair.live === undefined) {
        return { changes: [], diff: redact_scrub(unifiedDiff('', toYaml(after), opts.context ?? 3), values) };
    }
    const policy = (path) => opts.reportRemovals === true || alwaysReported(path);
    const fields = diffFields(pair.live, after, policy);
    const secret = isSecret(live) || isSecret(desired);
    const changes = fields.changes
        .filter((change) => !(secret && isSecretValuePath(change.path)))
        .map((change) => finishChange(change, values));
    if (secret)
        changes.push(...pair.keys.map(secretChange).filter((c) => c !== undefined));
    if (changes.length === 0)
        return { changes, diff: '' };
    const diff = unifiedDiff(toYaml(fields.liveView), toYaml(after), opts.context ?? 3);
    return { changes, diff: redact_scrub(diff, values) };
}

;// CONCATENATED MODULE: ./src/preview/object-changes.ts


/**
 * The Secret values no diff of a run may show: those of the package's objects and of the live objects
 * (a Secret's old value is as secret as its new one).
 */
function runSecretValues(manifests, live) {
    return collectSecretValues([...manifests, ...[...live].map((o) => o ?? undefined)]);
}
/**
 * What applying changes on an existing object: the live object against the server's answer to the
 * (dry-run) apply, fields the apply removes included, Secret values redacted. The preview shows it; the
 * pre-flight's plan hashes it (plan-drift): one diff, so the two cannot disagree.
 */
function configureDiff(live, answer, secretValues) {
    return diffObjects(live, answer, { secretValues, reportRemovals: true });
}

;// CONCATENATED MODULE: ./src/preview/preview-object.ts





/**
 * How the preview shows one object the run decided (its recorded `decision`, with the package's and the
 * live object): the action, the reason, and the field changes with Secret values redacted. The PR comment,
 * the plan digest and drift read these. Undefined for an object the run never decided (cancelled).
 */
function previewObjectOf(o, opts) {
    const decided = o[DecidedOn];
    if (!decided)
        return undefined;
    const { decision: d, manifest } = decided;
    const live = decided.live ?? undefined;
    const apiVersion = manifest?.apiVersion ?? live?.apiVersion ?? '';
    const wave = manifest ? o.wave : opts.pruneWave;
    const base = {
        id: o.id,
        apiVersion,
        action: d.action,
        ...(o.source ? { source: o.source } : {}),
        ...(wave !== undefined ? { wave } : {}),
    };
    const reason = d.reason ? { reason: d.reason } : {};
    const notes = ownershipNotes(d, live, opts.secretValues);
    if (notes.length > 0)
        base.ownership = notes;
    switch (d.action) {
        case 'create':
            return {
                ...base,
                validated: d.validated,
                ...reason,
                ...((d.object ?? manifest)
                    ? diffObjects(undefined, (d.object ?? manifest), { secretValues: opts.secretValues })
                    : {}),
            };
        case 'configure': {
            if (!d.object || !live)
                return { ...base, validated: false, ...reason };
            const diff = configureDiff(live, d.object, opts.secretValues);
            if (diff.changes.length > 0)
                return { ...base, validated: true, ...reason, ...diff };
            const why = d.reason ?? ownershipMove(live, apiVersion, opts.fieldManager);
            return { ...base, validated: true, reason: `${why}; no values change` };
        }
        case 'unchanged':
            return { ...base, validated: true };
        case 'prune':
            return { ...base, ...reason };
        case 'skip':
        case 'orphan': {
            // the skip with its owner's ResourceGroup, as the run reported it
            const skip = o.skip ?? d.skip;
            if (!skip)
                return { ...base, ...reason };
            return {
                ...base,
                ...previewOfSkip(skip, { allowSkipped: opts.allowSkipped, abandon: d.action === 'orphan' }),
            };
        }
        default:
            return { ...base, ...reason };
    }
}
/**
 * How preview shows an object apply would skip: a skip the user did not choose is an `error` marked
 * `blocked` (apply fails on it), unless allow-skipped accepts such skips; any other is a `skip` (or an
 * `orphan`, when it is forgotten instead of deleted).
 */
function previewOfSkip(skip, opts) {
    const reason = skipMessage(skip);
    if (opts.abandon)
        return { action: 'orphan', reason };
    if (!isBlockingSkip(skip) || opts.allowSkipped)
        return { action: 'skip', reason };
    const fix = skipFix(skip) ?? '';
    if (skip.type === 'inventory-policy') {
        return {
            action: 'error',
            reason,
            blocked: { cause: 'inventory-policy', ...(skip.owner ? { owner: skip.owner } : {}), fix },
        };
    }
    return { action: 'error', reason, blocked: { cause: 'dependency', fix } };
}
/**
 * What apply does with each field of the package another manager holds: one line per field taken back
 * from a hand edit (with its live and package values, never a Secret's), one line per manager whose fields
 * are released. Secret values left out.
 */
function ownershipNotes(d, live, secretValues) {
    const fields = d.ownership?.fields ?? [];
    const secret = isSecret(live);
    const notes = [];
    for (const f of fields.filter((x) => x.outcome === 'take')) {
        const values = !secret && f.live !== undefined && f.desired !== undefined
            ? `${shown(f.live)} → ${shown(f.desired)}, `
            : '';
        notes.push(`${f.field}: ${values}${f.message}`);
    }
    const released = new Map();
    for (const f of fields.filter((x) => x.outcome === 'release'))
        released.set(f.message, [...(released.get(f.message) ?? []), f.field]);
    for (const [message, names] of released) {
        const list = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
        notes.push(`${list}: ${message}`);
    }
    return notes.map((n) => redact_scrub(n, secretValues));
}
const shown = (v) => {
    const text = JSON.stringify(v) ?? String(v);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};
/** Why an apply that changes no value still writes the object: what happens to its field ownership. */
function ownershipMove(live, apiVersion, fieldManager) {
    const entries = (live.metadata.managedFields ?? []);
    const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply');
    if (ours?.apiVersion && ours.apiVersion !== apiVersion)
        return `the field ownership of ${fieldManager} is recorded under ${apiVersion} instead of ${ours.apiVersion}`;
    return `field ownership moves to ${fieldManager}`;
}

// EXTERNAL MODULE: ./src/preview/types.ts
var types = __webpack_require__(841);
;// CONCATENATED MODULE: ./src/preview/preview-document.ts






/**
 * The preview document of a dry run: what each object's recorded decision says apply would do, in the
 * walk's order (apply waves, then prune waves), with the counts and the waves for the graph. A view: it
 * asks nothing of the cluster.
 */
async function previewDocument(run, o) {
    const objects = await previewObjects(run.objects, run, o);
    const summary = (0,types/* emptySummary */.C)();
    for (const obj of objects) {
        summary[obj.action]++;
        if (obj.blocked)
            summary.blocked++;
    }
    const plan = run.plan;
    return {
        package: o.package,
        summary,
        objects,
        waves: (plan?.applyWaves ?? []).map((w) => w.map(object_id/* shortName */.EU)),
        edges: (plan?.edges ?? [])
            .filter((e) => !e.implicit)
            .map((e) => ({ from: (0,object_id/* shortName */.EU)(e.from), to: (0,object_id/* shortName */.EU)(e.to) })),
        context: {
            fieldManager: o.fieldManager,
            ...o.context,
            durationMs: run.durationMs,
        },
    };
}
/** The preview objects of a run's outcomes (those it decided), Secret values redacted. */
async function previewObjects(outcomes, run, o) {
    await yaml_module_loadYaml(); // the diffs render YAML
    const decided = outcomes.flatMap((x) => x[DecidedOn] ?? []);
    const secretValues = runSecretValues(decided.flatMap((x) => x.manifest ?? []), decided.map((x) => x.live));
    const pruneWave = new Map();
    for (const [i, wave] of (run.plan?.pruneWaves ?? []).entries())
        for (const id of wave)
            pruneWave.set((0,object_id/* idKey */.T4)(id), i + 1);
    return outcomes.flatMap((x) => {
        const obj = previewObjectOf(x, { ...o, secretValues, pruneWave: pruneWave.get((0,object_id/* idKey */.T4)(x.id)) });
        return obj ? [obj] : [];
    });
}

;// CONCATENATED MODULE: ./src/preview/plan-gate.ts



/** `Deployment/web` from an idKey; the key itself when it does not parse. */
function nameOfKey(key) {
    try {
        const id = (0,object_id/* parseInventoryId */.jz)(key);
        return id.namespace ? `${(0,object_id/* shortName */.EU)(id)} (namespace ${id.namespace})` : (0,object_id/* shortName */.EU)(id);
    }
    catch {
        return key;
    }
}
/**
 * The pre-flight walk's plan (what apply is about to carry out), digested as a preview's is; undefined with
 * `preflight: off`: nothing was dry-run, so a configure's changes are unknown.
 */
async function plannedEntries(preflight, options) {
    if (options.preflight === 'off')
        return undefined;
    return planOf(await previewObjects(preflight.outcomes, preflight, options), preflight.desired);
}
const plan_gate_short = (sha) => sha.slice(0, 7);
const refusal = (text, fix) => `${text}. Refusing to apply (plan-drift: fail); nothing was changed. ${fix}`;
/**
 * `plan-drift`, after the pre-flight: the plan about to be carried out (`planned`, undefined when the
 * pre-flight did not run) against the reviewed one. Fails closed: under `fail` a package with changes and
 * no reviewed plan of exactly its tree is refused; `warn` warns instead. A plan that changes nothing needs
 * no review. Notices and info lines are reported with the package's name in front.
 */
function checkPlan(gate, planned) {
    const fail = gate.policy === 'fail';
    const pkg = gate.package;
    const lookup = gate.reviewed;
    if (!planned) {
        return fail
            ? {
                refuse: refusal(`${pkg}: plan-drift: fail compares the pre-flight's plan with the reviewed one, but preflight is off`, 'Turn preflight on, or set plan-drift: warn'),
            }
            : { notice: 'plan-drift not checked: preflight is off, so the plan is only known while applying' };
    }
    if (lookup.kind === 'found') {
        const comparison = comparePlans(lookup.plan, planned);
        if (comparison.same)
            return { info: `the plan matches the one reviewed on #${lookup.pull}`, comparison };
        const names = comparison.differences.map((d) => nameOfKey(d.key));
        const text = `the plan changed since #${lookup.pull} was reviewed: ${names.join(', ') || comparison.note}`;
        return fail
            ? { refuse: refusal(text, 'Preview again and review, or run with plan-drift: warn'), comparison }
            : { warn: text, comparison };
    }
    if (!planned.some((e) => e.action !== 'unchanged'))
        return { info: 'nothing to change, so no reviewed plan is needed' };
    if (lookup.kind === 'unreadable') {
        return fail
            ? {
                refuse: refusal(`no reviewed plan for ${pkg} could be read: ${lookup.why}`, 'Give the job a github-token with pull-requests: read, or set plan-drift: warn'),
            }
            : { notice: `plan-drift not checked: ${lookup.why}` };
    }
    if (lookup.kind === 'none') {
        const text = `no reviewed plan for ${pkg}: ${lookup.why}`;
        return fail
            ? { refuse: refusal(text, 'Preview it in a pull request and merge that, or run with plan-drift: warn') }
            : { warn: text };
    }
    const pulls = lookup.reviewed.map((r) => `#${r.pull} reviewed ${plan_gate_short(r.tree)}`).join(', ');
    const text = `no merged pull request reviewed the tree of ${pkg} being applied (${plan_gate_short(lookup.tree)}): ${pulls}; ` +
        'a merge after those reviews changed the package';
    return fail
        ? {
            refuse: refusal(text, 'Require branches to be up to date before merging (branch protection), or merge through a merge queue'),
        }
        : { warn: `${text}; require branches to be up to date before merging, or use a merge queue` };
}

// EXTERNAL MODULE: ./src/report/pr-comment-body.ts
var pr_comment_body = __webpack_require__(6071);
// EXTERNAL MODULE: ./src/report/combined-sections.ts
var combined_sections = __webpack_require__(4948);
// EXTERNAL MODULE: ./src/report/preview-markdown.ts + 1 modules
var preview_markdown = __webpack_require__(6649);
// EXTERNAL MODULE: ./src/report/preview-words.ts
var preview_words = __webpack_require__(9458);
;// CONCATENATED MODULE: ./src/report/combined-comment.ts




/** More parts than this and the diffs are shortened to fit (a reader will not page through more). */
const MAX_PARTS = 10;
/** Room kept in each part for its marker line, headline and footer. */
const PART_RESERVE = 600;
/** The smallest room a section's preview is given before it is left at counts only. */
const MIN_SECTION = 1500;
function sumSummaries(docs) {
    const total = { ...docs[0].summary };
    for (const d of docs.slice(1))
        for (const k of Object.keys(total))
            total[k] += d.summary[k];
    return total;
}
function packageIcon(s) {
    if (s.error > 0)
        return s.blocked === s.error ? '⛔' : '❌';
    return (0,preview_words/* hasChanges */.ik)(s) ? '✏️' : '·';
}
const countsText = (s) => (0,preview_words/* countPhrases */.GN)(s).join(' · ') || 'no objects';
function sectionOf(e, budget, opts) {
    const s = e.doc.summary;
    if (!(0,preview_words/* hasChanges */.ik)(s))
        return (0,combined_sections/* wrapSection */.Ax)(e.doc.package, e.digest);
    const summary = `<summary>${packageIcon(s)} <code>${(0,markdown/* escapeHtml */.ZD)(e.doc.package)}</code> · ${(0,markdown/* escapeHtml */.ZD)(countsText(s))}</summary>`;
    const room = Math.max(MIN_SECTION, budget - summary.length - e.digest.length - 200);
    const preview = (0,preview_markdown/* renderPreviewMarkdown */.mV)(e.doc, {
        marker: false,
        commentKey: opts.commentKey,
        maxLength: room,
        limitName: 'the combined comment',
    }).trim();
    return (0,combined_sections/* wrapSection */.Ax)(e.doc.package, `<details>${summary}\n\n${preview}\n</details>\n${e.digest}`);
}
/** The summary a carried section shows in its `<summary>` ('no changes' when it has none). */
function carriedWords(inner) {
    const m = inner.match(/<summary>(?:\S+ )?<code>[^<]*<\/code> · (.*?)<\/summary>/);
    return m ? m[1] : 'no changes';
}
function table(entries, opts, limit) {
    const rows = entries.map((e) => ({
        changed: (0,preview_words/* hasChanges */.ik)(e.doc.summary),
        line: `| ${packageIcon(e.doc.summary)} | ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(e.doc.package))} | ${(0,markdown/* cell */.Hn)((0,markdown/* escapeHtml */.ZD)((0,preview_words/* hasChanges */.ik)(e.doc.summary) ? countsText(e.doc.summary) : 'no changes'))} |`,
    }));
    for (const c of opts.carried ?? [])
        rows.push({
            changed: true,
            line: `| ↩️ | ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(c.package))} | ${(0,markdown/* cell */.Hn)(`${carriedWords(c.inner)} (from an earlier run)`)} |`,
        });
    let shown = rows;
    let more = '';
    if (rows.reduce((n, r) => n + r.line.length + 1, 0) > limit / 3) {
        shown = rows.filter((r) => r.changed);
        more = `\n*… and ${rows.length - shown.length} packages with no changes*`;
    }
    return ['| | package | what changes |', '|---|---|---|', ...shown.map((r) => r.line), more].filter((l) => l !== '');
}
function head(entries, opts, limit) {
    const docs = entries.map((e) => e.doc);
    const n = docs.length + (opts.carried?.length ?? 0);
    const cluster = docs[0]?.context.cluster;
    const lines = [
        `### Preview · ${n} package${n === 1 ? '' : 's'}${cluster ? ` → cluster ${(0,markdown/* code */.aY)(cluster)}` : ''}`,
        '',
    ];
    if (docs.length > 0) {
        const changed = docs.filter((d) => (0,preview_words/* hasChanges */.ik)(d.summary)).length;
        const phrases = (0,preview_words/* countPhrases */.GN)(sumSummaries(docs));
        lines.push(`**${changed} with changes · ${docs.length - changed} with nothing to do**${phrases.length ? ` — ${phrases.join(' · ')}` : ''}`, '');
    }
    lines.push(...table(entries, opts, limit));
    if (opts.noLongerChanged?.length)
        lines.push('', `**No longer changed by this pull request** (merging it applies nothing to them): ${opts.noLongerChanged.map((p) => (0,markdown/* code */.aY)(p)).join(', ')}`);
    return lines.join('\n');
}
function footer(entries) {
    const c = entries[0]?.doc.context;
    if (!c)
        return '';
    const parts = [c.commit ? `Server-side dry-run at ${(0,markdown/* code */.aY)(c.commit.slice(0, 7))}` : 'Server-side dry-run'];
    parts.push(`field manager ${(0,markdown/* code */.aY)(c.fieldManager)}`);
    if (c.targetBranch)
        parts.push(`applies on merge to ${(0,markdown/* code */.aY)(c.targetBranch)}`);
    if (c.runUrl)
        parts.push(`[run log](${encodeURI(c.runUrl).replace(/[()]/g, encodeURIComponent)})`);
    return `<sub>${parts.join(' · ')}</sub>`;
}
/** Packs sections into parts of at most `capacity` (the first part's capacity is smaller). */
function pack(sections, first, rest) {
    const parts = [[]];
    let room = first;
    for (const s of sections) {
        const need = s.length + 2;
        if (need > room && parts[parts.length - 1].length > 0) {
            parts.push([]);
            room = rest;
        }
        parts[parts.length - 1].push(s);
        room -= need;
    }
    return parts;
}
/**
 * The combined comment's parts (part 1 first), each under `limit`. Sections appear in the order of
 * `entries`, carried ones after them.
 */
function renderCombinedComment(entries, opts = {}) {
    const limit = opts.limit ?? preview_markdown/* GITHUB_COMMENT_LIMIT */._4;
    const maxParts = opts.maxParts ?? MAX_PARTS;
    const key = opts.commentKey ?? '';
    const top = head(entries, opts, limit);
    const foot = footer(entries);
    const firstRoom = limit - PART_RESERVE - top.length - foot.length;
    const restRoom = limit - PART_RESERVE;
    const carried = (opts.carried ?? []).map((c) => (0,combined_sections/* wrapSection */.Ax)(c.package, c.inner));
    let budget = restRoom;
    let parts;
    for (;;) {
        const sections = [...entries.map((e) => sectionOf(e, budget, opts)), ...carried];
        parts = pack(sections, Math.max(0, firstRoom), restRoom);
        if (parts.length <= maxParts || budget <= MIN_SECTION)
            break;
        budget = Math.max(MIN_SECTION, Math.floor(budget / 2));
    }
    const total = parts.length;
    return parts.map((sections, i) => {
        const marker = (0,combined_sections/* combinedMarker */.g$)(i + 1, key);
        const blocks = i === 0
            ? [
                `${marker}\n${top}${total > 1 ? `\n\n*Continued in ${total - 1} more comment${total > 2 ? 's' : ''} below: one comment holds at most 65,536 characters.*` : ''}`,
                ...sections,
                foot,
            ]
            : [`${marker}\n### Preview · continued (part ${i + 1} of ${total})`, ...sections, foot];
        return `${blocks.filter(Boolean).join('\n\n')}\n`;
    });
}
/** A part left over from an earlier, longer combined comment: kept (never deleted), saying it is unused. */
function unusedPartBody(part, key = '') {
    return `${(0,combined_sections/* combinedMarker */.g$)(part, key)}\n*This part of the combined preview is no longer needed: the preview above fits in fewer comments.*\n`;
}
/** The hidden line a per-package comment gets when its preview moved into the combined comment. */
const MOVED_MARKER = '<!-- kpt-live-action:moved-to-combined -->';
/**
 * A per-package comment left from the per-package layout, edited to point to the combined comment that
 * now holds the package (its plan digest goes: the combined comment's section has the current one).
 */
function movedToCombinedBody(marker, pkg, url) {
    const where = url
        ? `[the combined preview comment](${encodeURI(url).replace(/[()]/g, encodeURIComponent)})`
        : 'the combined preview comment';
    return `${marker}\n${MOVED_MARKER}\n**Moved** · the preview of ${(0,markdown/* code */.aY)(pkg)} is now in ${where}, with every other package this pull request changes.\n`;
}
/** True for a per-package comment that points to the combined comment. */
function isMovedToCombined(body) {
    return body?.includes(MOVED_MARKER) === true;
}
/** A combined comment's part after the layout went back to one comment per package. */
function replacedByPerPackageBody(part, key = '') {
    return `${(0,combined_sections/* combinedMarker */.g$)(part, key)}\n*This pull request's previews are now one comment per package (comment-layout: per-package); this combined preview is no longer updated.*\n`;
}

// EXTERNAL MODULE: ./src/report/plan-digest-marker.ts
var plan_digest_marker = __webpack_require__(5099);
// EXTERNAL MODULE: ./src/action/comment-layout.ts
var comment_layout = __webpack_require__(6498);
// EXTERNAL MODULE: ./src/action/github/api-response.ts
var api_response = __webpack_require__(3182);
;// CONCATENATED MODULE: ./src/changes/changed-file.ts
/**
 * Maps GitHub's file statuses onto ours: `copied` is a new file (its source is untouched), `changed`
 * (mode only) and `unchanged` count as modified, so a package whose file merely changed mode is still
 * previewed.
 */
function fromApiFile(f) {
    switch (f.status) {
        case 'added':
        case 'copied':
            return { path: f.filename, status: 'added' };
        case 'removed':
            return { path: f.filename, status: 'removed' };
        case 'renamed':
            return f.previous_filename
                ? { path: f.filename, status: 'renamed', previous: f.previous_filename }
                : { path: f.filename, status: 'added' };
        default:
            return { path: f.filename, status: 'modified' };
    }
}
/**
 * Parses `git diff --name-status -z` output: a status field (`A`, `M`, `D`, `T`, `R<score>`,
 * `C<score>`) followed by one path, or two for renames and copies. NUL-separated, so paths with
 * spaces, tabs, newlines or non-ASCII characters come through unquoted.
 */
function parseNameStatus(output) {
    const fields = output.split('\0');
    if (fields[fields.length - 1] === '')
        fields.pop();
    const files = [];
    for (let i = 0; i < fields.length;) {
        const status = fields[i++];
        const kind = status.charAt(0);
        if (kind === 'R' || kind === 'C') {
            const from = fields[i++];
            const to = fields[i++];
            if (from === undefined || to === undefined)
                throw new Error(`truncated git diff output after "${status}"`);
            files.push(kind === 'R' ? { path: to, status: 'renamed', previous: from } : { path: to, status: 'added' });
            continue;
        }
        const file = fields[i++];
        if (file === undefined)
            throw new Error(`truncated git diff output after "${status}"`);
        files.push({
            path: file,
            status: kind === 'A' ? 'added' : kind === 'D' ? 'removed' : 'modified',
        });
    }
    return files;
}

;// CONCATENATED MODULE: ./src/action/github/change-set.ts




/** GitHub's `pulls.listFiles` returns at most this many files, whatever the pull request holds. */
const LIST_FILES_CAP = 3000;
/** GitHub's compare API lists at most this many files for the whole comparison. */
const COMPARE_FILES_CAP = 300;
/**
 * The files a pull request changed, as GitHub lists them (`pulls.listFiles`, every page, renames with their
 * old path). GitHub stops listing at 3,000 files; when the list reaches that cap, or is shorter than the
 * payload's `changed_files`, the list is incomplete and git answers instead (`git diff base...head` after
 * fetching the commits and enough history for their merge base).
 */
async function pullRequestChangeSet(octokit, input) {
    const listed = await octokit
        .paginate(octokit.rest.pulls.listFiles, {
        owner: input.owner,
        repo: input.repo,
        pull_number: input.number,
        per_page: 100,
    })
        .catch((err) => {
        const status = (0,api_response/* httpStatusOf */.s_)(err);
        const hint = (0,api_response/* refusalHint */.ah)(status, 'pull-requests: read');
        throw new Error(`listing the files of pull request #${input.number} failed: GitHub answered ${status ?? 'with an error'} (${(0,api_response/* apiMessageOf */.rU)(err)})${hint ? `; ${hint}` : ''}`, { cause: err });
    });
    const base = { base: input.baseSha, head: input.headSha };
    const truncated = listed.length >= LIST_FILES_CAP ||
        (input.changedFiles !== undefined && listed.length < input.changedFiles);
    if (!truncated)
        return { all: false, files: listed.map(fromApiFile), ...base, source: 'pulls-api', notes: [] };
    const note = `GitHub listed ${listed.length} files for pull request #${input.number}${input.changedFiles !== undefined ? ` of ${input.changedFiles}` : ''} (it stops at ${LIST_FILES_CAP}); reading the change from git instead`;
    const fetched = await ensureCommits(input.repoDir, [input.baseSha, input.headSha], input);
    if (!fetched.ok) {
        return {
            all: true,
            files: [],
            ...base,
            source: 'none',
            notes: [note, `${fetched.error}; every package counts as changed`],
        };
    }
    const mb = await deepenUntilMergeBase(input.repoDir, input.baseSha, input.headSha, input);
    const notes = [note];
    if (!mb)
        notes.push(`no merge base of ${input.baseSha} and ${input.headSha}; diffing the two commits directly`);
    const range = mb ? [`${input.baseSha}...${input.headSha}`] : [input.baseSha, input.headSha];
    return { all: false, files: await gitNameStatus(input.repoDir, range), ...base, source: 'git', notes };
}
/**
 * The files a push changed: the tree diff `before` → `after` (what the branch looked like before and after
 * the push, force pushes included). A depth-1 checkout lacks `before`, so it is fetched by SHA first; when
 * that fails (history rewritten and collected, no remote) GitHub's compare API answers, and when that
 * fails or is capped every package counts. A zero `before` is a new branch: nothing to compare with, so
 * every package counts; a zero `after` is a deleted branch: nothing changed that could be deployed.
 */
async function pushChangeSet(input, api) {
    const { before, after } = input;
    const range = { base: before, head: after };
    if (isZeroSha(after)) {
        return { all: false, files: [], ...range, source: 'none', notes: ['the push deleted the branch'] };
    }
    if (!before || isZeroSha(before)) {
        return {
            all: true,
            files: [],
            head: after,
            source: 'none',
            notes: ['the push created the branch (before is all zeros): every package counts as changed'],
        };
    }
    const fetched = await ensureCommits(input.repoDir, [before, after], input);
    if (fetched.ok) {
        const notes = fetched.fetched.length
            ? [`fetched ${fetched.fetched.join(', ')} (not in the checkout)`]
            : [];
        return {
            all: false,
            files: await gitNameStatus(input.repoDir, [before, after]),
            ...range,
            source: 'git',
            notes,
        };
    }
    const notes = [`${fetched.error}; asking GitHub's compare API`];
    if (!api) {
        notes.push('no GitHub token to ask with: every package counts as changed');
        return { all: true, files: [], ...range, source: 'none', notes };
    }
    try {
        const r = await api.octokit.rest.repos.compareCommitsWithBasehead({
            owner: api.owner,
            repo: api.repo,
            basehead: `${before}...${after}`,
        });
        const files = r.data.files ?? [];
        if (files.length >= COMPARE_FILES_CAP) {
            notes.push(`the compare API lists at most ${COMPARE_FILES_CAP} files: every package counts as changed`);
            return { all: true, files: [], ...range, source: 'compare-api', notes };
        }
        return { all: false, files: files.map(fromApiFile), ...range, source: 'compare-api', notes };
    }
    catch (err) {
        const hint = (0,api_response/* refusalHint */.ah)((0,api_response/* httpStatusOf */.s_)(err), 'contents: read');
        notes.push(`compare ${before}...${after} failed (${(0,api_response/* apiMessageOf */.rU)(err)}${hint ? `; ${hint}` : ''}): every package counts as changed`);
        return { all: true, files: [], ...range, source: 'none', notes };
    }
}
/**
 * The change set for the event the workflow runs on: a pull request's files, a push's diff, a merge
 * queue's base..head, and for any other event (workflow_dispatch, schedule) every package, since there is
 * no change to narrow it by.
 */
async function changeSetForEvent(ctx, opts) {
    if (ctx.pullRequest) {
        if (!opts.octokit) {
            const pr = ctx.pullRequest;
            const fetched = await ensureCommits(opts.repoDir, [pr.baseSha, pr.headSha], opts);
            const mb = fetched.ok
                ? await deepenUntilMergeBase(opts.repoDir, pr.baseSha, pr.headSha, opts)
                : undefined;
            if (!mb) {
                return {
                    all: true,
                    files: [],
                    base: pr.baseSha,
                    head: pr.headSha,
                    source: 'none',
                    notes: ['no GitHub token and no merge base in git: every package counts as changed'],
                };
            }
            const files = await gitNameStatus(opts.repoDir, [`${pr.baseSha}...${pr.headSha}`]);
            return { all: false, files, base: pr.baseSha, head: pr.headSha, source: 'git', notes: [] };
        }
        return pullRequestChangeSet(opts.octokit, {
            ...opts,
            owner: ctx.owner,
            repo: ctx.repo,
            number: ctx.pullRequest.number,
            baseSha: ctx.pullRequest.baseSha,
            headSha: ctx.pullRequest.headSha,
            changedFiles: ctx.pullRequest.changedFiles,
        });
    }
    const api = opts.octokit ? { octokit: opts.octokit, owner: ctx.owner, repo: ctx.repo } : undefined;
    if (ctx.push)
        return pushChangeSet({ ...opts, before: ctx.push.before, after: ctx.push.after }, api);
    // a merge queue tests its base with the queued pull requests on top: the tree diff base → head
    if (ctx.mergeGroup)
        return pushChangeSet({ ...opts, before: ctx.mergeGroup.baseSha, after: ctx.mergeGroup.headSha }, api);
    return {
        all: true,
        files: [],
        head: ctx.sha,
        source: 'none',
        notes: [`a ${ctx.name} event names no change: every package counts as changed`],
    };
}
async function gitNameStatus(repoDir, range) {
    const r = await git(repoDir, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', ...range, '--']);
    return parseNameStatus(r.stdout);
}

;// CONCATENATED MODULE: ./src/action/github/drift-issue.ts

/** The label every drift issue carries; drift issues are found by listing issues with it. */
const DRIFT_LABEL = 'kpt-live-drift';
/**
 * Every issue labelled `kpt-live-drift`, open or closed, all pages (GET /repos/{owner}/{repo}/issues with
 * `labels` and `state=all`; never the Search API, whose index lags and whose rate limit is small).
 */
async function listDriftIssues(octokit, owner, repo) {
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
        owner,
        repo,
        labels: DRIFT_LABEL,
        state: 'all',
        per_page: 100,
    });
    return issues.filter((i) => !i.pull_request);
}
/**
 * The issue of this marker: one whose body starts with it before one that merely quotes it, an open one
 * before a closed one, then the oldest, so re-runs keep editing the same issue.
 */
function pickDriftIssue(issues, marker) {
    const rank = (i) => (i.body?.trimStart().startsWith(marker) ? 0 : 2) + (i.state === 'open' ? 0 : 1);
    return issues
        .filter((i) => i.body?.includes(marker))
        .sort((a, b) => rank(a) - rank(b) || a.number - b.number)[0];
}
/** Why a drift issue could not be written, naming what to change (permission, issues turned off). */
function driftIssueSkipReason(status, message, what) {
    const why = (0,api_response/* refusalHint */.ah)(status, 'issues: write') ?? '';
    return `drift issue not written: GitHub answered ${status} (${message}) to ${what}; ${why}. The drift is in the job summary.`;
}
/** Wraps a GitHub call: 403/404/410 become a `skipped` result, anything else an error naming the step. */
async function step(what, call) {
    try {
        return await call();
    }
    catch (err) {
        const status = (0,api_response/* httpStatusOf */.s_)(err);
        if (status === 403 || status === 404 || status === 410)
            return { skipped: driftIssueSkipReason(status, (0,api_response/* apiMessageOf */.rU)(err), what) };
        throw new Error(`${what} failed: ${(0,api_response/* apiMessageOf */.rU)(err)}`, { cause: err });
    }
}
const isSkip = (x) => x !== null && typeof x === 'object' && 'skipped' in x;
/** Creates the label when the repository does not have it yet (a concurrent creation is fine). */
async function ensureDriftLabel(octokit, owner, repo) {
    try {
        await octokit.rest.issues.getLabel({ owner, repo, name: DRIFT_LABEL });
        return;
    }
    catch (err) {
        if ((0,api_response/* httpStatusOf */.s_)(err) !== 404)
            throw err;
    }
    try {
        await octokit.rest.issues.createLabel({
            owner,
            repo,
            name: DRIFT_LABEL,
            color: 'd93f0b',
            description: 'The cluster differs from the kpt package (kpt-live-action drift)',
        });
    }
    catch (err) {
        if ((0,api_response/* httpStatusOf */.s_)(err) !== 422)
            throw err; // 422: created meanwhile
    }
}
/**
 * Brings one package's drift issue up to date: while drifted, the issue is created (labelled), or edited
 * in place and reopened if it was closed; once in sync, an open issue gets a comment and is closed. A
 * 403/404/410 (a read-only token, no access, issues disabled) returns `skipped`, never throws: drift must not fail
 * because it cannot file an issue. `issues` is `listDriftIssues`' answer; a created issue is added to it.
 */
async function syncDriftIssue(octokit, issues, input) {
    const { owner, repo, marker } = input;
    const body = input.body.includes(marker) ? input.body : `${marker}\n${input.body}`;
    const existing = pickDriftIssue(issues, marker);
    const where = `${owner}/${repo}`;
    if (!input.drifted) {
        if (existing?.state !== 'open')
            return { action: 'none' };
        const n = existing.number;
        const commented = await step(`commenting on issue #${n} of ${where}`, () => octokit.rest.issues.createComment({ owner, repo, issue_number: n, body: input.inSyncComment }));
        if (isSkip(commented))
            return { action: 'skipped', reason: commented.skipped };
        const closed = await step(`closing issue #${n} of ${where}`, () => octokit.rest.issues.update({
            owner,
            repo,
            issue_number: n,
            state: 'closed',
            state_reason: 'completed',
        }));
        if (isSkip(closed))
            return { action: 'skipped', reason: closed.skipped };
        existing.state = 'closed';
        return { action: 'closed', number: n, url: closed.data.html_url };
    }
    if (existing) {
        const n = existing.number;
        const wasClosed = existing.state !== 'open';
        const updated = await step(`editing issue #${n} of ${where}`, () => octokit.rest.issues.update({
            owner,
            repo,
            issue_number: n,
            title: input.title,
            body,
            ...(wasClosed ? { state: 'open' } : {}),
        }));
        if (isSkip(updated))
            return { action: 'skipped', reason: updated.skipped };
        existing.state = 'open';
        existing.body = body;
        return { action: wasClosed ? 'reopened' : 'updated', number: n, url: updated.data.html_url };
    }
    const labelled = await step(`creating the "${DRIFT_LABEL}" label in ${where}`, () => ensureDriftLabel(octokit, owner, repo));
    if (isSkip(labelled))
        return { action: 'skipped', reason: labelled.skipped };
    const created = await step(`opening an issue in ${where}`, () => octokit.rest.issues.create({ owner, repo, title: input.title, body, labels: [DRIFT_LABEL] }));
    if (isSkip(created))
        return { action: 'skipped', reason: created.skipped };
    issues.push({ number: created.data.number, state: 'open', title: input.title, body });
    return { action: 'opened', number: created.data.number, url: created.data.html_url };
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
;// CONCATENATED MODULE: ./src/action/github/event.ts



function requireEnv(env, name) {
    const v = env[name]?.trim();
    if (!v) {
        throw new Error(`${name} is not set: the action reads the run's context from the variables the GitHub runner sets; when running it elsewhere, set ${name} (see README "Running outside GitHub")`);
    }
    return v;
}
const str = (v) => (typeof v === 'string' && v ? v : undefined);
async function readPayload(env) {
    const file = env.GITHUB_EVENT_PATH?.trim();
    if (!file)
        return {};
    let text;
    try {
        text = await (0,promises_.readFile)(file, 'utf8');
    }
    catch (err) {
        throw new Error(`GITHUB_EVENT_PATH names ${file}, which cannot be read (${err.message})`);
    }
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (err) {
        throw new Error(`GITHUB_EVENT_PATH ${file} is not JSON (${err.message})`);
    }
    if (!(0,kube_object/* isRecord */.u4)(value))
        throw new Error(`GITHUB_EVENT_PATH ${file} does not hold a JSON object`);
    return value;
}
/**
 * The pull request from a payload. A fork is told by the head repository differing from the base one (a
 * same-repo PR in a repository that is itself a fork has `head.repo.fork: true` but a writable token);
 * a deleted head repository (`head.repo: null`) counts as a fork.
 */
function pullRequestFromPayload(pr, file) {
    const at = (o, key) => ((0,kube_object/* isRecord */.u4)(o) ? o[key] : undefined);
    const number = at(pr, 'number');
    const baseSha = str(at(at(pr, 'base'), 'sha'));
    const headSha = str(at(at(pr, 'head'), 'sha'));
    if (typeof number !== 'number' || !baseSha || !headSha) {
        throw new Error(`${file}: pull_request payload lacks number, base.sha or head.sha; is GITHUB_EVENT_PATH the payload the runner wrote?`);
    }
    const headRepo = at(at(pr, 'head'), 'repo');
    const baseName = str(at(at(at(pr, 'base'), 'repo'), 'full_name'));
    const headName = str(at(headRepo, 'full_name'));
    const headRepoFork = !(0,kube_object/* isRecord */.u4)(headRepo)
        ? true
        : baseName && headName
            ? baseName.toLowerCase() !== headName.toLowerCase()
            : at(headRepo, 'fork') === true;
    const changed = at(pr, 'changed_files');
    const author = str(at(at(pr, 'user'), 'login'));
    return {
        number,
        baseSha,
        headSha,
        baseRef: str(at(at(pr, 'base'), 'ref')),
        headRef: str(at(at(pr, 'head'), 'ref')),
        headRepoFork,
        ...(typeof changed === 'number' ? { changedFiles: changed } : {}),
        ...(author ? { author } : {}),
    };
}
/**
 * Reads the run's context from `env` as the runner provides it (`GITHUB_EVENT_NAME`, `GITHUB_EVENT_PATH`,
 * `GITHUB_REPOSITORY`, `GITHUB_SHA`, `GITHUB_REF`, `GITHUB_SERVER_URL`, `GITHUB_RUN_ID`, `GITHUB_API_URL`).
 * Read on call, not at import like `@actions/github`'s `context`, so tests and the CLI can pass their own.
 */
async function readEventContext(env = process.env) {
    const name = requireEnv(env, 'GITHUB_EVENT_NAME');
    const full = requireEnv(env, 'GITHUB_REPOSITORY');
    const slash = full.indexOf('/');
    if (slash <= 0 || slash === full.length - 1 || full.indexOf('/', slash + 1) >= 0) {
        throw new Error(`GITHUB_REPOSITORY is "${full}"; expected "owner/repo"`);
    }
    const payload = await readPayload(env);
    const file = env.GITHUB_EVENT_PATH?.trim() || 'the event payload';
    const serverUrl = (env.GITHUB_SERVER_URL?.trim() || 'https://github.com').replace(/\/+$/, '');
    const runId = env.GITHUB_RUN_ID?.trim();
    const ctx = {
        name,
        owner: full.slice(0, slash),
        repo: full.slice(slash + 1),
        sha: env.GITHUB_SHA?.trim() || str(payload.after) || '',
        ref: env.GITHUB_REF?.trim() || str(payload.ref) || '',
        runUrl: runId ? `${serverUrl}/${full}/actions/runs/${runId}` : `${serverUrl}/${full}/actions`,
        serverUrl,
        apiUrl: (0,api_response/* apiBaseUrl */.tj)(env),
    };
    const defaultBranch = str((0,kube_object/* isRecord */.u4)(payload.repository) ? payload.repository.default_branch : undefined);
    if (defaultBranch)
        ctx.defaultBranch = defaultBranch;
    const action = str(payload.action);
    if (action)
        ctx.action = action;
    if ((0,kube_object/* isRecord */.u4)(payload.pull_request))
        ctx.pullRequest = pullRequestFromPayload(payload.pull_request, file);
    if (name === 'merge_group') {
        const mg = (0,kube_object/* isRecord */.u4)(payload.merge_group) ? payload.merge_group : {};
        const baseSha = str(mg.base_sha);
        const headSha = str(mg.head_sha) ?? ctx.sha;
        if (!baseSha || !headSha)
            throw new Error(`${file}: merge_group payload lacks base_sha or head_sha`);
        ctx.mergeGroup = { baseSha, headSha, baseRef: str(mg.base_ref), headRef: str(mg.head_ref) };
    }
    if (name === 'push') {
        const before = str(payload.before);
        const after = str(payload.after) ?? ctx.sha;
        if (!before || !after)
            throw new Error(`${file}: push payload lacks "before" or "after"`);
        ctx.push = { before, after };
    }
    return ctx;
}
/** True for a push to the repository's default branch: what `mode: auto` applies. */
function isDefaultBranchPush(ctx) {
    return (ctx.push !== undefined && ctx.defaultBranch !== undefined && ctx.ref === `refs/heads/${ctx.defaultBranch}`);
}

// EXTERNAL MODULE: ./src/action/github/identity.ts
var identity = __webpack_require__(5848);
;// CONCATENATED MODULE: ./src/action/github/merged-pulls.ts

/**
 * The pull requests associated with a commit (`GET /repos/{owner}/{repo}/commits/{sha}/pulls`, every page):
 * for a commit on the default branch, the PR(s) whose merge brought it there. Newest merge first. A
 * 403/404 (no `pull-requests: read`, a token without access) gives `skipped` with a reason for a notice.
 */
async function mergedPullsOf(octokit, where) {
    const { owner, repo, sha } = where;
    try {
        const pulls = await octokit.paginate(octokit.rest.repos.listPullRequestsAssociatedWithCommit, {
            owner,
            repo,
            commit_sha: sha,
            per_page: 100,
        });
        return sortPulls(pulls.map((p) => ({ number: p.number, ...(p.merged_at ? { mergedAt: p.merged_at } : {}) })));
    }
    catch (err) {
        const status = (0,api_response/* httpStatusOf */.s_)(err);
        if (status === 403 || status === 404 || status === 422)
            return {
                skipped: `could not list the pull requests of commit ${sha.slice(0, 7)}: GitHub answered ${status} (${(0,api_response/* apiMessageOf */.rU)(err)}); give the job "permissions: pull-requests: write" to get the apply result on the pull request`,
            };
        throw new Error(`listing the pull requests of commit ${sha} failed: ${(0,api_response/* apiMessageOf */.rU)(err)}`, {
            cause: err,
        });
    }
}
/**
 * The pull requests merged by any of `commits` (e.g. every commit of a range that changed a package):
 * one request per commit, one at a time, each commit's pulls once; newest merge first, each pull once.
 * The first commit GitHub refuses to answer for (403/404/422) ends the listing with `skipped`.
 */
async function mergedPullsOfCommits(octokit, where, commits, cache = new Map()) {
    const found = new Map();
    for (const sha of commits) {
        let answer = cache.get(sha);
        if (!answer) {
            answer = mergedPullsOf(octokit, { ...where, sha });
            cache.set(sha, answer);
        }
        const pulls = await answer;
        if ('skipped' in pulls)
            return { pulls: sortPulls([...found.values()]), skipped: pulls.skipped };
        for (const p of pulls)
            if (!found.has(p.number))
                found.set(p.number, p);
    }
    return { pulls: sortPulls([...found.values()]) };
}
const sortPulls = (pulls) => pulls.sort((a, b) => (b.mergedAt ?? '').localeCompare(a.mergedAt ?? '') || b.number - a.number);

// EXTERNAL MODULE: ./src/action/github/pr-comment.ts + 1 modules
var pr_comment = __webpack_require__(2306);
// EXTERNAL MODULE: ./src/action/github/rate-limit.ts
var rate_limit = __webpack_require__(802);
// EXTERNAL MODULE: ./src/action/github/run-state.ts
var run_state = __webpack_require__(6753);
;// CONCATENATED MODULE: ./src/action/github/index.ts
/**
 * The GitHub side of the action: the run's event context, which files a change touched (pull request
 * files, push diffs, the compare API, git in a shallow checkout), the drift issue, merged pulls and the
 * per-package PR comment. What the files mean for packages (plain git and package logic the CLI uses
 * too) is in src/changes.
 * Everything takes its Octokit, repository directory and environment as arguments, so tests drive it
 * against the local server in test/support/github-server.ts and throwaway git repositories.
 */










;// CONCATENATED MODULE: ./src/action/reviewed-plan.ts





/** Of each combined part of this key, our newest comment (part number → comment). */
function combinedParts(comments, key) {
    const parts = new Map();
    for (const c of comments) {
        const m = c.body ? (0,combined_sections/* parseCombinedMarker */.LH)(c.body) : undefined;
        if (!m || m.key !== key)
            continue;
        const seen = parts.get(m.part);
        if (!seen || c.id > seen.id)
            parts.set(m.part, c);
    }
    return parts;
}
/** The combined part (comment) that holds the package's section, if any. */
function combinedPartOf(comments, pkg, key) {
    const parts = [...combinedParts(comments, key).entries()].sort((a, b) => a[0] - b[0]);
    return parts.find(([, c]) => (0,combined_sections/* packageSection */.Sf)(c.body ?? '', pkg) !== undefined)?.[1];
}
/**
 * The reviewed plan of `pkg` (and `key`, the `comment-key`) among one pull request's comments (ours
 * only), or undefined when none holds one. When both layouts hold a digest (a run that switched layout
 * and stopped half-way), the newer comment wins.
 */
function reviewedPlanFor(comments, pkg, key) {
    const found = [];
    const own = (0,pr_comment/* pickMarkedComment */.FG)(comments, (0,preview_markdown/* previewMarker */.fh)(pkg, key));
    const ownPlan = own?.body && !isMovedToCombined(own.body) ? (0,plan_digest_marker/* parsePlanDigest */.Bd)(own.body) : undefined;
    if (own && ownPlan)
        found.push({
            plan: ownPlan,
            commentId: own.id,
            url: own.html_url,
            layout: 'per-package',
            updated: own.updated_at ?? '',
        });
    const part = combinedPartOf(comments, pkg, key);
    const section = part ? (0,combined_sections/* packageSection */.Sf)(part.body ?? '', pkg) : undefined;
    const partPlan = section !== undefined ? (0,plan_digest_marker/* parsePlanDigest */.Bd)((0,combined_sections/* sectionPreview */.Kg)(section)) : undefined;
    if (part && partPlan)
        found.push({
            plan: partPlan,
            commentId: part.id,
            url: part.html_url,
            layout: 'combined',
            updated: part.updated_at ?? '',
        });
    found.sort((a, b) => b.updated.localeCompare(a.updated));
    if (found.length === 0)
        return undefined;
    const { updated: _updated, ...best } = found[0];
    return best;
}
/** Reads the pull request's comments (ours) and returns `reviewedPlanFor` them, or why it cannot. */
async function readReviewedPlan(octokit, where, pkg, key) {
    const t = await readCommentThread(octokit, {
        owner: where.owner,
        repo: where.repo,
        issueNumber: where.pull,
    });
    if ('skipped' in t)
        return { none: t.skipped };
    return (reviewedPlanFor(t.comments, pkg, key) ?? {
        none: `no comment of ${pkg}${key ? ` (comment-key ${key})` : ''} on #${where.pull} holds a reviewed plan`,
    });
}
/**
 * Finds the plan reviewed for the tree being applied among the merged pull requests (newest merge first):
 * the newest whose comment's plan was reviewed on exactly `tree`. A plan without a tree (a comment from an
 * older version) stands for the newest pull request that has a plan, as before trees were recorded.
 * `planOf` reads the package's reviewed plan on a pull request (either comment layout, comment-key).
 */
async function findReviewedPlan(pulls, planOf, tree) {
    if (pulls.length === 0)
        return { kind: 'none', why: 'no merged pull request brought this change (pushed without one?)' };
    const reviewed = [];
    const unreadable = [];
    for (const pull of pulls) {
        const found = await planOf(pull.number);
        if ('skipped' in found) {
            unreadable.push(`#${pull.number}: ${found.skipped}`);
            continue;
        }
        const plan = found.plan;
        if (!plan)
            continue;
        if (!plan.tree || !tree) {
            if (reviewed.length === 0)
                return { kind: 'found', pull: pull.number, plan };
            continue;
        }
        if (plan.tree === tree)
            return { kind: 'found', pull: pull.number, plan };
        reviewed.push({ pull: pull.number, tree: plan.tree });
    }
    if (reviewed.length > 0 && tree)
        return { kind: 'mismatch', tree, reviewed };
    if (unreadable.length > 0)
        return { kind: 'unreadable', why: unreadable.join('; ') };
    const where = pulls.map((p) => `#${p.number}`).join(', ');
    return {
        kind: 'none',
        why: `the PR comment was deleted or never written (${where}; a package with nothing to change at review gets none under comment: changes)`,
    };
}

;// CONCATENATED MODULE: ./src/action/applied-comments.ts









/**
 * The "Applied" section of a package on a merged pull request, in whichever layout the preview used:
 * the package's own comment (edited at once), or its section of the combined comment (collected, then
 * one edit per part in `flush`, since a monorepo merge may apply hundreds of packages). Where the pull
 * request has no comment for the package, one is made in the layout `comment-layout` chooses for the
 * run's package count (none under `comment: never`).
 */
class AppliedComments {
    inputs;
    octokit;
    pending = new Map();
    constructor(inputs, octokit) {
        this.inputs = inputs;
        this.octokit = octokit;
    }
    async post(thread, pkg, section, packageCount) {
        const key = this.inputs.commentKey;
        const marker = (0,preview_markdown/* previewMarker */.fh)(pkg, key);
        const own = (0,pr_comment/* pickMarkedComment */.FG)(thread.comments, marker);
        const ownLive = own && !isMovedToCombined(own.body);
        const part = combinedPartOf(thread.comments, pkg, key);
        if (ownLive || (!part && !own)) {
            const layout = ownLive
                ? 'per-package'
                : (0,comment_layout/* chooseLayout */.EM)(this.inputs.commentLayout, packageCount, thread.comments, key);
            if (!ownLive && this.inputs.comment === 'never')
                return { action: 'none' };
            if (layout === 'per-package') {
                const body = (0,pr_comment_body/* withAppliedSection */.xk)(own?.body ?? undefined, section, { package: pkg, commentKey: key });
                return { action: 'written', res: await (0,pr_comment/* writeMarkedComment */.zl)(this.octokit, thread, marker, body) };
            }
        }
        // the combined comment: the part holding the package, else the last part (made when there is none)
        const parts = combinedParts(thread.comments, key);
        const n = part ? Number([...parts].find(([, c]) => c === part)?.[0]) : Math.max(1, ...parts.keys());
        const id = `${thread.issueNumber}#${n}`;
        const pending = this.pending.get(id) ?? {
            thread,
            part: n,
            body: parts.get(n)?.body ?? `${(0,combined_sections/* combinedMarker */.g$)(n, key)}\n### Applied`,
            packages: new Set(),
        };
        const inner = (0,combined_sections/* packageSection */.Sf)(pending.body, pkg) ?? '';
        pending.body = (0,combined_sections/* replaceSection */.U2)(pending.body, pkg, (0,combined_sections/* withSectionApplied */.pK)(inner, section));
        pending.packages.add(pkg);
        this.pending.set(id, pending);
        return { action: 'queued' };
    }
    /** Writes the collected combined parts; `report` hears of each. */
    async flush(report) {
        const parts = [...this.pending.values()];
        this.pending.clear();
        for (const p of parts) {
            const body = fitPart(p.body, p.packages);
            const res = await (0,pr_comment/* writeMarkedComment */.zl)(this.octokit, p.thread, (0,combined_sections/* combinedMarker */.g$)(p.part, this.inputs.commentKey), body);
            report(p.thread.issueNumber, [...p.packages], res);
        }
    }
}
/**
 * A combined part under GitHub's limit: the previews of the packages that got an Applied section give
 * way first (their plan digest and Applied section stay), then the part is cut.
 */
function fitPart(body, applied, limit = preview_markdown/* GITHUB_COMMENT_LIMIT */._4) {
    let out = body;
    for (const pkg of applied) {
        if (out.length <= limit)
            return out;
        const inner = (0,combined_sections/* packageSection */.Sf)(out, pkg);
        if (inner === undefined)
            continue;
        const preview = (0,combined_sections/* sectionPreview */.Kg)(inner);
        const digest = (0,plan_digest_marker/* planDigestText */.F6)(preview);
        const rest = inner.slice(inner.indexOf(pr_comment_body/* APPLIED_MARKER */.$l));
        const note = '*The preview was cut to make room for the apply result; the preview run has it.*';
        out = (0,combined_sections/* replaceSection */.U2)(out, pkg, `${note}${digest ? `\n${digest}` : ''}\n\n${rest}`);
    }
    return out.length <= limit ? out : (0,markdown/* clip */.$Q)(out, limit);
}

// EXTERNAL MODULE: ./src/action/toolkit.ts + 1 modules
var toolkit = __webpack_require__(5851);
;// CONCATENATED MODULE: ./src/action/apply-feedback.ts










/**
 * The merged pull requests' side of an apply: the plan their comments reviewed (compared with what the
 * pre-flight decided, `plan-drift`) and the "Applied" section added to those comments afterwards
 * (`comment-on-apply`). With a scope, a package's pull requests are those merged by the commits since the
 * one the cluster last applied that changed it (catch-up applies what cancelled runs did not); without,
 * those of the pushed commit. GitHub problems never fail the job: a notice, or a warning; only
 * `plan-drift: fail` refuses a package.
 */
class ApplyFeedback {
    inputs;
    ctx;
    octokit;
    scope;
    lists = new Map();
    commitPulls = new Map();
    threads = new Map();
    drift = new Map();
    noticed = new Set();
    applied;
    /** Packages this run applies (the comment layout of a pull request without a comment depends on it). */
    packageCount = 0;
    constructor(inputs, ctx, octokit, scope) {
        this.inputs = inputs;
        this.ctx = ctx;
        this.octokit = octokit;
        this.scope = scope;
        if (octokit)
            this.applied = new AppliedComments(inputs, octokit);
    }
    /** Before the run: the packages it applies. */
    begin(paths) {
        this.packageCount = paths.length;
    }
    noticeOnce(text) {
        if (this.noticed.has(text))
            return;
        this.noticed.add(text);
        toolkit/* notice */.lm(text);
    }
    /**
     * The pull requests merged into `pkg` since the commit the cluster last applied for it, newest merge
     * first; those of the pushed commit when that base is unknown or git cannot list the range. `skipped`:
     * GitHub refused to list some (no permission).
     */
    pullList(pkg) {
        const base = this.scope?.units.get(pkg)?.base;
        const key = this.scope && base && base !== this.ctx.sha ? pkg : '';
        let list = this.lists.get(key);
        if (!list) {
            list = key ? this.listRange(pkg, base, this.scope.repoRoot) : this.listCommits([this.ctx.sha]);
            this.lists.set(key, list);
        }
        return list;
    }
    listCommits(commits) {
        return mergedPullsOfCommits(this.octokit, { owner: this.ctx.owner, repo: this.ctx.repo }, commits, this.commitPulls);
    }
    async listRange(pkg, base, repoRoot) {
        const range = await commitsTouching(repoRoot, base, this.ctx.sha, [pkg]);
        if ('unknown' in range) {
            this.noticeOnce(`${pkg}: the pull requests merged since ${base.slice(0, 7)} cannot be listed (${range.unknown}); only those of ${this.ctx.sha.slice(0, 7)} are used`);
            return this.listCommits([this.ctx.sha]);
        }
        if (range.truncated)
            this.noticeOnce(`${pkg}: more than ${RANGE_COMMITS_MAX} commits changed it since ${base.slice(0, 7)}; the pull requests of the newest ${RANGE_COMMITS_MAX} are used`);
        return this.listCommits(range.commits);
    }
    /** The merged pull requests of `pkg` (see pullList); a refusal to list them is a notice. */
    async mergedPulls(pkg) {
        if (!this.octokit)
            return [];
        const list = await this.pullList(pkg);
        if (list.skipped)
            this.noticeOnce(list.skipped);
        return list.pulls;
    }
    async thread(n) {
        let t = this.threads.get(n);
        if (!t) {
            t = (0,pr_comment/* readCommentThread */.YA)(this.octokit, { owner: this.ctx.owner, repo: this.ctx.repo, issueNumber: n });
            this.threads.set(n, t);
        }
        return t;
    }
    /**
     * The plan reviewed for `pkg` (before its run): the newest merged pull request whose comment reviewed
     * the tree being applied, or why there is none.
     */
    async reviewedPlan(pkg) {
        if (!this.octokit)
            return { kind: 'unreadable', why: 'no github-token to read the merged pull requests with' };
        try {
            const list = await this.pullList(pkg);
            if (list.skipped && list.pulls.length === 0)
                return { kind: 'unreadable', why: list.skipped };
            return await findReviewedPlan(list.pulls, async (n) => {
                const t = await this.thread(n);
                if ('skipped' in t)
                    return t;
                return { plan: reviewedPlanFor(t.comments, pkg, this.inputs.commentKey)?.plan };
            }, this.scope?.units.get(pkg)?.tree);
        }
        catch (err) {
            return { kind: 'unreadable', why: err.message };
        }
    }
    /**
     * The plan gate for `pkg`, fetched before its run: the reviewed plan (or why there is none) and the
     * policy. Undefined with `plan-drift: ignore`.
     */
    async gate(pkg) {
        if (this.inputs.planDrift === 'ignore')
            return undefined;
        return { policy: this.inputs.planDrift, package: pkg, reviewed: await this.reviewedPlan(pkg) };
    }
    /**
     * What the run's comparison found, reported after it: a notice when there was nothing to compare, a
     * warning naming the objects when the plan changed (`warn`; a refusal is the run's error), and the
     * objects for the job summary and the Applied section.
     */
    verdict(pkg, v) {
        if (!v)
            return;
        if (v.comparison && !v.comparison.same)
            this.drift.set(pkg, v.comparison);
        if (v.notice)
            toolkit/* notice */.lm(`${pkg}: ${v.notice}`);
        if (v.info)
            toolkit/* info */.pq(`${pkg}: ${v.info}`);
        if (v.warn)
            toolkit/* warning */.$e(v.warn, { title: `kpt-live-action: plan changed since review (${pkg})` });
    }
    /** The job summary section naming the objects whose plan changed ('' when none). */
    summarySection(pkg) {
        const c = this.drift.get(pkg);
        if (!c)
            return '';
        return `\n#### Plan changed since review · \`${pkg}\`\n\n${(0,pr_comment_body/* driftLines */.$m)(c, nameOfKey).join('\n')}\n`;
    }
    /** Adds the "Applied" section to the package's comment on each merged pull request. */
    async report(r, secretValues) {
        if (!this.inputs.commentOnApply || !this.octokit || !this.applied)
            return;
        try {
            const pulls = await this.mergedPulls(r.path);
            if (pulls.length === 0) {
                toolkit/* info */.pq(`no pull request merged into ${this.ctx.sha.slice(0, 7)}: the apply result is not posted`);
                return;
            }
            const objects = r.run?.objects ?? [];
            const section = (0,pr_comment_body/* renderAppliedSection */.T$)({
                package: r.path,
                // a package the loop never started was not applied
                outcome: r.outcome === 'skipped' ? 'error' : r.outcome,
                counts: countOutcomes(objects),
                failed: objects
                    .filter((o) => failed(o))
                    .map((o) => ({
                    name: (0,object_id/* shortName */.EU)(o.id),
                    reason: redact_scrub(o.message ?? o.reconcile ?? 'failed', secretValues),
                })),
                ...(r.error ? { error: redact_scrub(r.error, secretValues) } : {}),
                commit: this.ctx.sha,
                runUrl: this.ctx.runUrl,
                drift: this.drift.get(r.path),
                nameOf: nameOfKey,
            });
            for (const pull of pulls) {
                const t = await this.thread(pull.number);
                if ('skipped' in t) {
                    toolkit/* notice */.lm(`apply result not posted on #${pull.number}: ${t.skipped}`);
                    continue;
                }
                const posted = await this.applied.post(t, r.path, section, this.packageCount);
                if (posted.action !== 'written')
                    continue;
                const res = posted.res;
                if (res.action === 'skipped')
                    toolkit/* notice */.lm(`apply result not posted on #${pull.number}: ${res.reason}`);
                else
                    toolkit/* info */.pq(`apply result of ${r.path} ${res.action === 'created' ? 'posted' : 'added'} on #${pull.number}${res.url ? `: ${res.url}` : ''}`);
            }
        }
        catch (err) {
            const reason = err.message;
            toolkit/* warning */.$e(`could not post the apply result of ${r.path} on the pull request: ${reason}`);
            (0,run_state/* noteUnposted */.nl)(this.octokit, `the apply result of ${r.path}`, reason);
        }
    }
    /** After the run: writes the Applied sections collected for combined comments (one edit per part). */
    async finish() {
        if (!this.applied || !this.octokit)
            return;
        try {
            await this.applied.flush((pull, packages, res) => {
                if (res.action === 'skipped')
                    toolkit/* notice */.lm(`apply result not posted on #${pull}: ${res.reason}`);
                else
                    toolkit/* info */.pq(`apply result of ${packages.join(', ')} added to the combined comment on #${pull}${res.url ? `: ${res.url}` : ''}`);
            });
        }
        catch (err) {
            const reason = err.message;
            toolkit/* warning */.$e(`could not post the apply results on the combined comment: ${reason}`);
            (0,run_state/* noteUnposted */.nl)(this.octokit, 'the apply results on the combined comment', reason);
        }
    }
}

// EXTERNAL MODULE: ./src/action/cluster-access.ts + 8 modules
var cluster_access = __webpack_require__(2536);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./node_modules/js-yaml/dist/js-yaml.mjs
var js_yaml = __webpack_require__(3243);
;// CONCATENATED MODULE: ./src/package/fast-yaml.ts

const plainInt = /^[-+]?[0-9]+$/;
const octInt = /^0o[0-7]+$/;
const hexInt = /^0x[0-9a-fA-F]+$/;
const floatNaN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const floatExp = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const floatPlain = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const core = js_yaml/* default.FAILSAFE_SCHEMA */.Ay.FAILSAFE_SCHEMA.extend({
    implicit: [
        new js_yaml/* default.Type */.Ay.Type('tag:yaml.org,2002:null', {
            kind: 'scalar',
            resolve: (s) => /^(?:~|[Nn]ull|NULL)?$/.test(s),
            construct: () => null,
        }),
        new js_yaml/* default.Type */.Ay.Type('tag:yaml.org,2002:bool', {
            kind: 'scalar',
            resolve: (s) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s),
            construct: (s) => s[0] === 't' || s[0] === 'T',
        }),
        new js_yaml/* default.Type */.Ay.Type('tag:yaml.org,2002:int', {
            kind: 'scalar',
            resolve: (s) => plainInt.test(s) || octInt.test(s) || hexInt.test(s),
            construct: (s) => octInt.test(s)
                ? parseInt(s.slice(2), 8)
                : hexInt.test(s)
                    ? parseInt(s.slice(2), 16)
                    : parseInt(s, 10),
        }),
        new js_yaml/* default.Type */.Ay.Type('tag:yaml.org,2002:float', {
            kind: 'scalar',
            resolve: (s) => floatNaN.test(s) || floatExp.test(s) || floatPlain.test(s),
            construct: (s) => floatNaN.test(s)
                ? s.slice(-3).toLowerCase() === 'nan'
                    ? Number.NaN
                    : s[0] === '-'
                        ? Number.NEGATIVE_INFINITY
                        : Number.POSITIVE_INFINITY
                : parseFloat(s),
        }),
    ],
});
/** Syntax the fast reader leaves to the `yaml` package: directives, `...`, tags, anchors and aliases. */
const unsupported = /^(?:%|\.\.\.(?:\s|$))|(?:^|[\s:,[{-])[!&*]/m;
const marker = /^---(?:[ \t]*(?:#.*)?)?$/;
/** The documents of `text`, or undefined when only the full reader can read it exactly. */
function readFastYaml(text) {
    const docs = [];
    for (const doc of documents(text)) {
        if (doc === false)
            return undefined;
        docs.push(doc);
    }
    return docs;
}
/**
 * `readFastYaml`, giving the event loop a turn whenever it has read for `sliceMs`: a package of a thousand
 * objects takes ~100 ms to read, and the answers the run is already waiting for (discovery, the lock, the
 * inventory) are handled in between instead of after it. `onSlice` gets the documents of each slice as it
 * ends (they may still turn out unreadable by the fast reader as a whole).
 */
async function readFastYamlInSlices(text, options = {}) {
    const sliceMs = options.sliceMs ?? 5;
    const docs = [];
    let since = performance.now();
    let sliceStart = 0;
    for (const doc of documents(text)) {
        if (doc === false)
            return undefined;
        docs.push(doc);
        if (performance.now() - since >= sliceMs) {
            options.onSlice?.(docs.slice(sliceStart));
            sliceStart = docs.length;
            await new Promise((resolve) => setImmediate(resolve));
            since = performance.now();
        }
    }
    options.onSlice?.(docs.slice(sliceStart));
    return docs;
}
/** The documents of `text` one by one; `false` (and nothing after it) when the fast reader gives up. */
function* documents(text) {
    if (unsupported.test(text) || text.includes('\t') || text.charCodeAt(0) === 0xfeff) {
        yield false;
        return;
    }
    const lines = text.split('\n');
    let start = 0;
    for (let i = 0; i <= lines.length; i++) {
        const atEnd = i === lines.length;
        const line = atEnd ? '' : lines[i];
        if (!atEnd && !line.startsWith('---'))
            continue;
        // content on the `---` line
        if (!atEnd && !marker.test(line.replace(/\r$/, ''))) {
            yield false;
            return;
        }
        const doc = readChunk(lines, start, i);
        if (doc === false) {
            yield false;
            return;
        }
        if (doc)
            yield doc;
        start = i + 1;
    }
}
/** One document between markers: undefined when empty, false when only the full reader may read it. */
function readChunk(lines, from, to) {
    let first = -1;
    for (let i = from; i < to; i++) {
        const l = lines[i].replace(/\r$/, '');
        if (l.trim() === '' || l.trimStart().startsWith('#'))
            continue;
        first = i;
        break;
    }
    if (first === -1)
        return undefined;
    if (!/^[A-Za-z0-9_"']/.test(lines[first]))
        return false;
    let value;
    try {
        value = loadChunk(lines.slice(from, to).join('\n'));
    }
    catch {
        return false;
    }
    if (value === declined)
        return false;
    if (value === null || value === undefined)
        return undefined;
    return { value, line: first + 1 };
}
const declined = Symbol('declined');
/**
 * One document with js-yaml, or `declined` when a quoted scalar or a flow collection spans lines: js-yaml
 * takes their continuation lines at any indentation, where the yaml package rejects one that is not
 * indented below its block (`a: "x` then `b"` at column 0), so such a node is left to the full reader.
 */
function loadChunk(chunk) {
    if (singleLineNodes(chunk))
        return js_yaml/* default.load */.Ay.load(chunk, { schema: core });
    const opened = [];
    let multiLine = false;
    const value = js_yaml/* default.load */.Ay.load(chunk, {
        schema: core,
        listener(event, state) {
            if (event === 'open') {
                opened.push(state.position); // before the space, comments and line breaks that precede the node
                return;
            }
            const from = opened.pop() ?? 0;
            if (multiLine)
                return;
            const start = nodeStart(state.input, from);
            const c = state.input[start];
            const flow = c === '[' || c === '{' || ((c === '"' || c === "'") && state.kind === 'scalar');
            if (flow && state.input.lastIndexOf('\n', state.position - 1) >= start)
                multiLine = true;
        },
    });
    return multiLine ? declined : value;
}
/**
 * Whether no quoted scalar or flow collection of `chunk` can span lines, judged from the text alone (the
 * js-yaml listener that tells for sure costs a call per node): no `[` or `{` at all, and on every line an
 * even number of `"` and of `'` and no backslash next to them. A line that opens a quoted scalar without
 * closing it has an odd count of its quote (an escape is `\"` or `''`); anything unsure goes the long way.
 */
function singleLineNodes(chunk) {
    if (chunk.includes('[') || chunk.includes('{'))
        return false;
    let dq = 0;
    let sq = 0;
    let backslash = false;
    for (let i = 0; i <= chunk.length; i++) {
        const c = i === chunk.length ? 10 : chunk.charCodeAt(i);
        if (c === 34)
            dq++;
        else if (c === 39)
            sq++;
        else if (c === 92)
            backslash = true;
        else if (c === 10) {
            if (dq % 2 === 1 || sq % 2 === 1 || (backslash && dq + sq > 0))
                return false;
            dq = 0;
            sq = 0;
            backslash = false;
        }
    }
    return true;
}
/** The first character of a node whose parsing starts at `i`: past spaces, line breaks and comments. */
function nodeStart(input, i) {
    while (i < input.length) {
        const c = input[i];
        if (c === ' ' || c === '\n' || c === '\r')
            i++;
        else if (c === '#') {
            const eol = input.indexOf('\n', i);
            i = eol === -1 ? input.length : eol;
        }
        else
            break;
    }
    return i;
}
/**
 * The 1-based line of the top-level mapping key `key` (plain or quoted) of a document `readFastYaml` read
 * from `text`, found in the text since the fast reader keeps no positions: in a document it reads, a line
 * at column 0 is a top-level key, a comment or a `---`. Undefined unless exactly one line of the document
 * is that key, and when a complex key (`? `) could be it.
 */
function topLevelKeyLine(text, doc, key) {
    const lines = text.split('\n');
    const forms = [key, JSON.stringify(key), `'${key}'`];
    let found;
    for (let i = doc.line - 1; i < lines.length && !lines[i].startsWith('---'); i++) {
        const l = lines[i];
        if (l.startsWith('?'))
            return undefined;
        const form = forms.find((f) => l.startsWith(f) && /^ *:(?:[ \r]|$)/.test(l.slice(f.length)));
        if (form === undefined)
            continue;
        if (found !== undefined)
            return undefined;
        found = i + 1;
    }
    return found;
}

;// CONCATENATED MODULE: ./src/package/read-yaml.ts

/**
 * 1-based line where a node starts; `fallback` when there is no node or it has no position (a value read by
 * the fast reader has no nodes, and no line counter either).
 */
function lineOfNode(lineCounter, node, fallback = 1) {
    const offset = node?.range?.[0];
    return offset === undefined || !lineCounter ? fallback : lineCounter.linePos(offset).line;
}
/**
 * The source text of a scalar node, as written (`1.0`, `yes`, `true`), so a fix can say exactly what to
 * quote rather than what JavaScript made of it.
 */
function sourceText(text, node) {
    const range = node?.range;
    return range ? text.slice(range[0], range[1]) : undefined;
}
/**
 * Splits a file into documents with the `yaml` package (YAML 1.2 core schema, as kpt's kyaml reads it:
 * `yes`/`on` stay strings, `true`/`1.0` do not). Syntax errors become PackageErrors with the line the
 * parser points at; a document with errors yields no objects, the other documents of the file still do,
 * so every mistake is reported in one run.
 */
function parseYamlFile(text, file) {
    const Y = yamlLib();
    const lineCounter = new Y.LineCounter();
    const parsed = Y.parseAllDocuments(text, { lineCounter });
    const docs = [];
    const errors = [];
    // A stream with nothing in it (empty file, comments only) parses to an EmptyStream, which is an array too.
    for (const doc of Array.isArray(parsed) ? parsed : []) {
        if (doc.errors.length > 0) {
            for (const err of doc.errors) {
                const first = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
                errors.push({
                    message: /Maximum call stack/.test(first)
                        ? 'invalid YAML: nested too deeply to read (thousands of levels of lists or maps)'
                        : `invalid YAML: ${first}`,
                    file,
                    line: err.linePos?.[0]?.line ?? lineCounter.linePos(err.pos[0]).line,
                    fix: 'fix the YAML syntax at that line (indentation, quotes, unclosed brackets); `kpt fn render` or a YAML linter shows the details',
                });
            }
            continue;
        }
        docs.push({ file, doc, text, lineCounter, line: lineOfNode(lineCounter, doc.contents) });
    }
    return { docs, errors };
}
/**
 * A YAML file's text, or an error naming the file, line and byte when it is not UTF-8 (kpt, kubectl and
 * the API server all read UTF-8; decoding other bytes would silently apply U+FFFD instead).
 */
function decodeUtf8(bytes, file) {
    try {
        return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    }
    catch {
        const i = firstInvalidUtf8(bytes);
        let line = 1;
        for (let k = 0; k < i; k++)
            if (bytes[k] === 0x0a)
                line++;
        const byte = bytes[i] ?? 0;
        return {
            error: {
                file,
                line,
                message: `not valid UTF-8 (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')})`,
                fix: 'save the file as UTF-8',
            },
        };
    }
}
/** Index of the first byte that does not belong to a well-formed UTF-8 sequence (bytes.length if none). */
function firstInvalidUtf8(bytes) {
    for (let i = 0; i < bytes.length;) {
        const b = bytes[i];
        const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
        if (len === 0 || i + len > bytes.length)
            return i;
        for (let k = 1; k < len; k++)
            if ((bytes[i + k] & 0xc0) !== 0x80)
                return i;
        i += len;
    }
    return bytes.length;
}

;// CONCATENATED MODULE: ./src/package/kptfile.ts





const stringMap = (v) => (0,kube_object/* isRecord */.u4)(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : undefined;
const optString = (v) => v === undefined || v === null ? undefined : typeof v === 'string' ? v : String(v);
/**
 * The parts of a Kptfile's top-level mapping live apply cares about, into `info`. Only those are
 * interpreted; the rest (upstream, info) is kpt's business. An empty `pipeline: {}` or `inventory:` with
 * no value counts as absent, as kpt decodes them to empty/nil. `inventoryLine` is asked only when there is
 * an inventory section; undefined means the caller cannot place it.
 */
function interpret(value, info, inventoryLine) {
    if ((0,kube_object/* isRecord */.u4)(value.metadata) && typeof value.metadata.name === 'string')
        info.name = value.metadata.name;
    const pipeline = value.pipeline;
    if ((0,kube_object/* isRecord */.u4)(pipeline)) {
        const nonEmpty = (v) => Array.isArray(v) && v.length > 0;
        info.pipeline = nonEmpty(pipeline.mutators) || nonEmpty(pipeline.validators);
    }
    const inv = value.inventory;
    if ((0,kube_object/* isRecord */.u4)(inv)) {
        info.inventory = {
            name: optString(inv.name),
            namespace: optString(inv.namespace),
            inventoryID: optString(inv.inventoryID),
            labels: stringMap(inv.labels),
            annotations: stringMap(inv.annotations),
        };
        info.inventoryLine = inventoryLine();
        if (info.inventoryLine === undefined)
            return undefined;
    }
    return info;
}
/**
 * Reads a Kptfile's text with the `yaml` package (which must be loaded), reporting syntax errors and an
 * empty or non-mapping Kptfile at their lines.
 */
function parseKptfile(text, file) {
    const { docs, errors } = parseYamlFile(text, file);
    const info = { file, pipeline: false, errors };
    if (docs.length === 0) {
        if (errors.length === 0) {
            info.errors.push({ message: 'the Kptfile is empty', file, fix: 'create it with "kpt pkg init <dir>"' });
        }
        return info;
    }
    const [first] = docs;
    const value = first.doc.toJS();
    if (!(0,kube_object/* isRecord */.u4)(value)) {
        info.errors.push({
            message: 'the Kptfile is not a mapping',
            file,
            line: first.line,
            fix: 'write it as kpt does: apiVersion: kpt.dev/v1, kind: Kptfile, metadata.name',
        });
        return info;
    }
    const inventoryLine = () => {
        const { isMap, isScalar } = yamlLib();
        const contents = first.doc.contents;
        const pair = isMap(contents)
            ? contents.items.find((p) => isScalar(p.key) && p.key.value === 'inventory')
            : undefined;
        return lineOfNode(first.lineCounter, isScalar(pair?.key) ? pair.key : undefined, first.line);
    };
    return interpret(value, info, inventoryLine) ?? info;
}
/**
 * `parseKptfile`'s result without the `yaml` package, for a Kptfile the fast reader reads whose first
 * document is a mapping and is the first of the file (no empty document before it), and whose `inventory:`
 * line, if any, is found in the text; undefined for anything else, which `parseKptfile` then reads.
 */
function parseKptfileFast(text, file) {
    const first = readFastYaml(text)?.[0];
    if (!first || !(0,kube_object/* isRecord */.u4)(first.value))
        return undefined;
    // before it only blank lines, comments and at most one `---`: else an empty document may come first
    const before = text.split('\n', first.line - 1).map((l) => l.trim());
    if (before.filter((l) => l !== '' && !l.startsWith('#')).some((l, i) => i > 0 || !l.startsWith('---')))
        return undefined;
    const info = { file, pipeline: false, errors: [] };
    return interpret(first.value, info, () => topLevelKeyLine(text, first, 'inventory'));
}
/**
 * Reads and parses `<dir>/Kptfile`; `file` is its path relative to the repository root. The `yaml`
 * package is imported only for a Kptfile the fast reader does not take.
 */
async function kptfile_readKptfile(abs, file) {
    const text = await (0,promises_.readFile)(abs, 'utf8');
    const fast = parseKptfileFast(text, file);
    if (fast)
        return fast;
    await yaml_module_loadYaml();
    return parseKptfile(text, file);
}

;// CONCATENATED MODULE: ./src/package/object-shape.ts



/** How a value reads in a message: `boolean true`, `number 1`, `null`, `a mapping`. */
function describeValue(value) {
    if (value === null || value === undefined)
        return 'null';
    if (Array.isArray(value))
        return 'a list';
    if (typeof value === 'object')
        return 'a mapping';
    return `${typeof value} ${String(value)}`;
}
/** The YAML node at `path` below `node` (keeping scalars), if `node` is a mapping. */
function nodeAt(node, path) {
    if (!node || !yamlLib().isMap(node))
        return undefined;
    const found = node.getIn(path, true);
    return found && typeof found === 'object' && 'range' in found ? found : undefined;
}
function pairFor(node, key) {
    if (!node || !yamlLib().isMap(node))
        return undefined;
    return node.items.find((p) => (yamlLib().isScalar(p.key) ? String(p.key.value) : String(p.key)) === key);
}
/**
 * Checks the fields every object needs and that the API server types as strings, reporting each problem
 * at its own line with the fix; values of the wrong type are coerced to the text as written so the other
 * rules can still run on the object (the errors are fatal anyway). Objects without apiVersion, kind or
 * metadata.name have no identity and are dropped after their errors are recorded. Without a `node`
 * (the fast reader) every error is placed at the object's first line and a coerced value is the
 * JavaScript value as text, so callers use such a result only when it has no errors, and otherwise read
 * the file again with the `yaml` package.
 */
function shapeObject(value, node, yaml) {
    const line = lineOfNode(yaml.lineCounter, node, yaml.line);
    const file = yaml.file;
    const errors = [];
    // The line of a field's key (`metadata:`), which is where people look, not of its value below it.
    const at = (path) => {
        const parent = path.length > 1 ? nodeAt(node, path.slice(0, -1)) : node;
        const key = pairFor(parent, path[path.length - 1])?.key;
        return lineOfNode(yaml.lineCounter, key && typeof key === 'object' ? key : undefined, line);
    };
    if (!(0,kube_object/* isRecord */.u4)(value)) {
        errors.push({
            message: `not a Kubernetes object: expected a mapping with apiVersion, kind and metadata, got ${describeValue(value)}`,
            file,
            line,
            fix: 'make the document a Kubernetes object, or move it out of the package (or annotate it config.kubernetes.io/local-config: "true")',
        });
        return { line, errors };
    }
    const meta = (0,kube_object/* isRecord */.u4)(value.metadata) ? value.metadata : undefined;
    const kind = typeof value.kind === 'string' && value.kind !== '' ? value.kind : undefined;
    const rawName = meta?.name;
    const label = `${kind ?? '<no kind>'}/${typeof rawName === 'string' || typeof rawName === 'number' ? rawName : '<no name>'}`;
    const object = kind || rawName !== undefined ? label : undefined;
    const required = [
        [
            ['apiVersion'],
            'apiVersion',
            'add "apiVersion: <group>/<version>" (e.g. "apps/v1"; "v1" for core kinds)',
        ],
        [['kind'], 'kind', 'add "kind: <Kind>" (e.g. "ConfigMap")'],
    ];
    for (const [path, field, fix] of required) {
        const v = value[path[0]];
        if (typeof v !== 'string' || v === '') {
            const message = v === undefined
                ? `missing ${field}`
                : `${field} must be a non-empty string (got ${describeValue(v)})`;
            errors.push({ message, file, line: v === undefined ? line : at(path), object, fix });
        }
    }
    if (!meta || rawName === undefined || rawName === null || rawName === '') {
        errors.push({
            message: meta ? 'missing metadata.name' : 'missing metadata',
            file,
            line: meta ? at(['metadata']) : line,
            object,
            fix: 'add "metadata:\\n  name: <name>"',
        });
    }
    if (errors.length > 0 || !meta)
        return { line, errors };
    const stringField = (path, what) => {
        const v = meta[path[path.length - 1]];
        if (typeof v === 'string')
            return v;
        const n = nodeAt(node, path);
        const written = sourceText(yaml.text, n) ?? String(v);
        errors.push({
            message: `${what} must be a string (got ${describeValue(v)})`,
            file,
            line: at(path),
            object,
            fix: (0,kube_object/* isRecord */.u4)(v) || Array.isArray(v) ? `make ${what} a string` : `quote it: ${JSON.stringify(written)}`,
        });
        return written;
    };
    const metadata = {
        ...meta,
        name: stringField(['metadata', 'name'], 'metadata.name'),
    };
    if (meta.namespace === null || meta.namespace === undefined)
        delete metadata.namespace;
    else
        metadata.namespace = stringField(['metadata', 'namespace'], 'metadata.namespace');
    for (const field of ['labels', 'annotations']) {
        const map = meta[field];
        if (map === null || map === undefined) {
            delete metadata[field];
            continue;
        }
        const mapNode = nodeAt(node, ['metadata', field]);
        if (!(0,kube_object/* isRecord */.u4)(map)) {
            errors.push({
                message: `metadata.${field} must be a mapping of strings (got ${describeValue(map)})`,
                file,
                line: at(['metadata', field]),
                object,
                fix: `write metadata.${field} as "key: value" lines`,
            });
            delete metadata[field];
            continue;
        }
        const clean = {};
        const singular = field === 'labels' ? 'label' : 'annotation';
        for (const [key, v] of Object.entries(map)) {
            if (typeof v === 'string') {
                clean[key] = v;
                continue;
            }
            const pair = pairFor(mapNode, key);
            const valueNode = pair?.value && typeof pair.value === 'object' ? pair.value : undefined;
            const written = v === null ? '' : (sourceText(yaml.text, valueNode) ?? String(v));
            errors.push({
                message: `${singular} ${JSON.stringify(key)} value must be a string (got ${describeValue(v)})`,
                file,
                line: lineOfNode(yaml.lineCounter, pair?.key ?? mapNode, line),
                object,
                fix: (0,kube_object/* isRecord */.u4)(v) || Array.isArray(v)
                    ? 'make the value a string (for structured data, a JSON or YAML string in quotes or a "|" block)'
                    : v === null
                        ? 'give it a value, or write an empty string: ""'
                        : `quote it: ${JSON.stringify(written)}`,
            });
            clean[key] = written;
        }
        metadata[field] = clean;
    }
    const kubeObject = { ...value, metadata };
    return { object: kubeObject, line, errors };
}

;// CONCATENATED MODULE: ./src/package/package-error.ts
/**
 * One readable line per error, compiler style, so editors and GitHub annotations can jump to it:
 * `deploy/app/cm.yaml:12: ConfigMap/foo: label "x" value must be a string (got boolean true); quote it: "true"`.
 * The one exception is kpt's cyclic-dependency message, which keeps its own `\n- a -> b` lines.
 */
function formatPackageError(error) {
    const where = error.file ? (error.line ? `${error.file}:${error.line}: ` : `${error.file}: `) : '';
    const what = error.object ? `${error.object}: ` : '';
    const fix = error.fix ? `; ${error.fix}` : '';
    return `${where}${what}${error.message}${fix}`;
}
/**
 * Orders errors by file then line so output is stable whatever order the rules ran in; errors without a
 * file (package-wide problems) come first.
 */
function sortPackageErrors(errors) {
    return [...errors].sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0));
}
/**
 * Thrown only where a caller handed us something unusable (a path outside the repository); it carries the
 * same structured errors so the CLI can print them without a stack trace and exit 1.
 */
class PackageFailure extends Error {
    errors;
    constructor(errors) {
        super(errors.map(formatPackageError).join('\n'));
        this.name = 'PackageFailure';
        this.errors = errors;
    }
}

;// CONCATENATED MODULE: ./src/package/path-safety.ts



/** Posix form of a relative path, `.` for the empty path, so ids and messages look the same on every OS. */
function toPosix(rel) {
    const p = rel.split((external_node_path_default()).sep).join('/');
    return p === '' ? '.' : p;
}
function isInside(root, target) {
    const rel = external_node_path_default().relative(root, target);
    return rel === '' || (!rel.startsWith('..') && !external_node_path_default().isAbsolute(rel));
}
/**
 * Resolves the real path of `abs`, or of its deepest existing ancestor plus the missing rest: a file a pull
 * request deleted still has to map to a package, and must not escape through a symlinked parent.
 */
async function realpathLenient(abs) {
    const missing = [];
    let cur = abs;
    for (;;) {
        try {
            const real = await (0,promises_.realpath)(cur);
            return missing.length ? external_node_path_default().join(real, ...missing.reverse()) : real;
        }
        catch (err) {
            const code = err.code;
            if (code !== 'ENOENT' && code !== 'ENOTDIR')
                throw err;
            const parent = external_node_path_default().dirname(cur);
            if (parent === cur)
                return abs;
            missing.push(external_node_path_default().basename(cur));
            cur = parent;
        }
    }
}
/**
 * Checks that `target` (relative to `root`, or absolute) stays inside `root`, both as written (`..`) and
 * after resolving symlinks, because a package path comes from a workflow file or a pull request and must
 * never make us read or write outside the repository. Throws a PackageFailure naming the path and the fix.
 */
async function path_safety_resolveInside(root, target, what = 'path') {
    const lexicalRoot = external_node_path_default().resolve(root);
    const realRoot = await (0,promises_.realpath)(lexicalRoot).catch(() => {
        throw new PackageFailure([
            { message: `root directory "${root}" does not exist`, fix: 'run from the repository checkout' },
        ]);
    });
    const lexical = external_node_path_default().resolve(lexicalRoot, target);
    const fix = 'use a path inside the repository (no "..", no symlinks that point outside it)';
    if (!isInside(lexicalRoot, lexical) && !isInside(realRoot, lexical)) {
        throw new PackageFailure([
            {
                message: `${what} "${target}" resolves outside the repository root "${realRoot}"`,
                file: target,
                fix,
            },
        ]);
    }
    const abs = await realpathLenient(lexical);
    if (!isInside(realRoot, abs)) {
        throw new PackageFailure([
            {
                message: `${what} "${target}" is a symlink (or inside one) that points to "${abs}", outside the repository root "${realRoot}"`,
                file: toPosix(external_node_path_default().relative(lexicalRoot, lexical)),
                fix,
            },
        ]);
    }
    return { realRoot, abs, rel: toPosix(external_node_path_default().relative(realRoot, abs)) };
}

;// CONCATENATED MODULE: ./src/package/package-tree.ts



const package_tree_KptfileName = 'Kptfile';
const isYaml = (name) => name.endsWith('.yaml') || name.endsWith('.yml');
/**
 * Walks `startAbs` (inside `realRoot`) the way kpt's package reader does: every directory, Kptfiles mark
 * packages, `*.yaml`/`*.yml` files are collected, symlinked directories are not followed (kpt ignores
 * them). Deliberate differences: hidden directories (`.git`, `.github`) and `node_modules` are skipped,
 * and a symlinked file is read only when it resolves inside the root; one pointing outside is an error,
 * not a silent read of some other file on the runner.
 */
async function package_tree_walkTree(realRoot, startAbs) {
    const tree = { packages: [], yamlFiles: [], errors: [] };
    const inside = (p) => {
        const rel = external_node_path_default().relative(realRoot, p);
        return rel === '' || (!rel.startsWith('..') && !external_node_path_default().isAbsolute(rel));
    };
    async function visit(dirAbs) {
        const entries = await (0,promises_.readdir)(dirAbs, { withFileTypes: true });
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
            const abs = external_node_path_default().join(dirAbs, entry.name);
            const rel = toPosix(external_node_path_default().relative(realRoot, abs));
            if (entry.isDirectory()) {
                if (entry.name.startsWith('.') || entry.name === 'node_modules')
                    continue;
                await visit(abs);
            }
            else if (entry.isSymbolicLink()) {
                const target = await (0,promises_.realpath)(abs).catch(() => undefined);
                if (target === undefined)
                    continue; // dangling link: nothing to read
                if (!inside(target)) {
                    tree.errors.push({
                        message: `symlink points outside the repository (to "${target}")`,
                        file: rel,
                        fix: 'replace the symlink with a copy of the file, or remove it',
                    });
                    continue;
                }
                const info = await (0,promises_.stat)(target);
                if (info.isFile() && isYaml(entry.name))
                    tree.yamlFiles.push({ rel, abs: target });
                if (info.isFile() && entry.name === package_tree_KptfileName)
                    tree.packages.push(toPosix(external_node_path_default().relative(realRoot, dirAbs)));
            }
            else if (entry.isFile()) {
                if (entry.name === package_tree_KptfileName)
                    tree.packages.push(toPosix(external_node_path_default().relative(realRoot, dirAbs)));
                else if (isYaml(entry.name))
                    tree.yamlFiles.push({ rel, abs });
            }
        }
    }
    await visit(startAbs);
    tree.packages.sort();
    tree.yamlFiles.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    return tree;
}
/** True when `dir` is `ancestor` or below it (posix paths relative to the same root, `.` for the root). */
function isWithin(ancestor, dir) {
    return ancestor === '.' || dir === ancestor || dir.startsWith(`${ancestor}/`);
}
const depth = (dir) => (dir === '.' ? 0 : dir.split('/').length);
/** The deepest package directory containing `fileRel`, i.e. the package that owns the file. */
function package_tree_owningPackage(packages, fileRel) {
    const dir = external_node_path_default().posix.dirname(fileRel);
    let best;
    for (const pkg of packages) {
        if (isWithin(pkg, dir) && (best === undefined || depth(pkg) > depth(best)))
            best = pkg;
    }
    return best;
}

;// CONCATENATED MODULE: ./src/package/shape-file.ts





/**
 * Every object of one file as the fast reader reads it, when it reads the whole file, no document is a
 * `kind: List`, and every object is well-formed; undefined otherwise, and then only the `yaml` package
 * (`shapeFile`) gives the result, errors with their exact lines included. Never imports `yaml`.
 */
function shapeFast(text, file) {
    return shapeDocs(readFastYaml(text), text, file);
}
function shapeDocs(fast, text, file) {
    if (!fast || fast.some((d) => (0,kube_object/* isRecord */.u4)(d.value) && d.value.kind === 'List'))
        return undefined;
    const shaped = fast.map((d) => shapeObject(d.value, undefined, { file, text, line: d.line }));
    return shaped.every((x) => x.errors.length === 0 && x.object) ? shaped : undefined;
}
/**
 * Every object of one file, checked (syntax and shape errors go to `errors`), `kind: List` flattened:
 * read by the fast reader when it can (see `shapeFast`), else (and for every error's line) by the `yaml`
 * package, which is imported only then. `onKinds` hears the kinds the fast reader meets as it goes.
 */
async function shapeFile(text, file, errors, onKinds) {
    // read in slices: a large file does not hold up the answers the run is waiting for
    const onSlice = onKinds && ((docs) => onKinds(docs.flatMap(kindOf)));
    const fast = shapeDocs(await readFastYamlInSlices(text, { onSlice }), text, file);
    if (fast)
        return fast;
    await yaml_module_loadYaml();
    const parsed = parseYamlFile(text, file);
    errors.push(...parsed.errors);
    const out = [];
    for (const yaml of parsed.docs) {
        if (yaml.doc.contents === null || yaml.doc.toJS() === null)
            continue; // empty document (`---` alone)
        for (const { value, node } of objectsOf(yaml)) {
            const shaped = shapeObject(value, node, yaml);
            errors.push(...shaped.errors);
            if (shaped.object)
                out.push(shaped);
        }
    }
    return out;
}
/** The objects of one document: itself, or the items of a `kind: List` (flattened as kpt's live.Flatten). */
function objectsOf(yaml) {
    const value = yaml.doc.toJS();
    const node = yaml.doc.contents ?? undefined;
    if ((0,kube_object/* isRecord */.u4)(value) && value.kind === 'List' && Array.isArray(value.items)) {
        const itemsNode = yaml.doc.getIn(['items'], true);
        return value.items.map((item, i) => ({
            value: item,
            node: yamlLib().isSeq(itemsNode) ? itemsNode.items[i] : undefined,
        }));
    }
    return [{ value, node }];
}
/** A document's apiVersion and kind, when both are strings. */
function kindOf(doc) {
    if (!(0,kube_object/* isRecord */.u4)(doc.value))
        return [];
    const { apiVersion, kind } = doc.value;
    return typeof apiVersion === 'string' && typeof kind === 'string' ? [{ apiVersion, kind }] : [];
}

;// CONCATENATED MODULE: ./src/package/inventory-info.ts










/** The same inventory object: name, namespace and inventory id (where it was read from aside). */
function sameInventory(a, b) {
    return a.name === b.name && a.namespace === b.namespace && a.id === b.id;
}
/** True for kpt's inventory object, `kpt.dev/v1alpha1` `ResourceGroup`, which is never applied as content. */
function isResourceGroup(obj) {
    return obj.apiVersion === constants/* ResourceGroupApiVersion */.u_ && obj.kind === constants/* ResourceGroupKind */.gM;
}
const initFix = (dir) => `run "kpt-live init ${dir}" (or "kpt live init ${dir}") and commit the resourcegroup.yaml it writes`;
/**
 * Decides a package's inventory info from its root Kptfile and the ResourceGroups in its own files, with
 * kpt's rules (`Pkg.LocalInventory`): more than one ResourceGroup, or one plus a Kptfile `inventory:`, is
 * an error; none is an error that says how to create one; name, namespace and id must all be set.
 * Reading from the Kptfile adds kpt's migration notice.
 */
function resolveInventoryInfo(input) {
    const { dir, kptfile, resourceGroups } = input;
    const errors = [];
    const notices = [];
    const rgName = (rg) => `${constants/* ResourceGroupKind */.gM}/${rg.object.metadata.name}`;
    const where = (rg) => `${rg.source.file}:${rg.source.line}`;
    if (resourceGroups.length > 1) {
        for (const rg of resourceGroups.slice(1)) {
            errors.push({
                message: `multiple ResourceGroup objects found in package (the first is at ${where(resourceGroups[0])})`,
                file: rg.source.file,
                line: rg.source.line,
                object: rgName(rg),
                fix: `keep exactly one ResourceGroup (in ${constants/* ResourceGroupFile */.yb}) and delete the others`,
            });
        }
        return { errors, notices };
    }
    const kfInv = kptfile?.inventory;
    const [rg] = resourceGroups;
    if (kfInv && rg) {
        errors.push({
            message: `inventory was found in both Kptfile and ResourceGroup object (${where(rg)})`,
            file: kptfile.file,
            line: kptfile.inventoryLine,
            fix: `keep one: delete the Kptfile's "inventory:" section if ${rg.source.file} describes the same inventory, otherwise delete ${rg.source.file}`,
        });
        return { errors, notices };
    }
    let inventory;
    if (rg) {
        inventory = {
            name: rg.object.metadata.name,
            namespace: rg.object.metadata.namespace ?? '',
            id: rg.object.metadata.labels?.[constants/* Labels */.gC.InventoryId] ?? '',
            source: 'resourcegroup',
            file: rg.source.file,
            line: rg.source.line,
        };
    }
    else if (kfInv && kptfile) {
        inventory = {
            name: kfInv.name ?? '',
            namespace: kfInv.namespace ?? '',
            id: kfInv.inventoryID ?? '',
            source: 'kptfile',
            file: kptfile.file,
            line: kptfile.inventoryLine,
            ...(kfInv.labels ? { labels: kfInv.labels } : {}),
            ...(kfInv.annotations ? { annotations: kfInv.annotations } : {}),
        };
        notices.push(`${kptfile.file}: inventory info is read from the Kptfile's "inventory:" section; kpt recommends a ${constants/* ResourceGroupFile */.yb} instead: migrate with "kpt live migrate"`);
    }
    else {
        errors.push({
            message: `package has no inventory info (no ${constants/* ResourceGroupFile */.yb} and no "inventory:" in the Kptfile): Package uninitialized`,
            file: kptfile?.file ?? external_node_path_default().posix.join(dir, package_tree_KptfileName),
            fix: initFix(dir),
        });
        return { errors, notices };
    }
    const fields = [
        ['name', 'inventory.name', rg ? 'set metadata.name' : 'set inventory.name'],
        ['namespace', 'inventory.namespace', rg ? 'set metadata.namespace' : 'set inventory.namespace'],
        [
            'id',
            'inventory.inventoryID',
            rg ? `add the label "${constants/* Labels */.gC.InventoryId}: <id>" to metadata.labels` : 'set inventory.inventoryID',
        ],
    ];
    for (const [key, field, fix] of fields) {
        if (inventory[key] === '') {
            errors.push({
                message: `the inventory information is not valid: "${field}" must not be empty`,
                file: inventory.file,
                line: inventory.line,
                object: rg ? rgName(rg) : undefined,
                fix: `${fix} (or regenerate it with "kpt-live init --force ${dir}")`,
            });
        }
    }
    return errors.length ? { errors, notices } : { inventory, errors, notices };
}
/**
 * The error for inventory info found inside a subpackage of a deployable unit (CONTRACT.md): kpt would
 * ignore it, but two inventories would then both claim the subpackage's objects.
 */
function nestedInventoryError(subpackage, unit, file, line, object) {
    return {
        message: `inventory info inside subpackage "${subpackage}" of the deployable unit "${unit}": two inventories would own the same objects`,
        file,
        line,
        object,
        fix: `remove it (the subpackage is applied with "${unit}"), or remove the inventory info of "${unit}" to deploy its subpackages on their own`,
    };
}
/**
 * Finds the ResourceGroups among YAML files (kpt reads them from any file of the package, not only
 * resourcegroup.yaml). Files that do not mention the kind are not parsed; syntax errors are left to the
 * loader, which reports them with everything else. A file the fast reader takes whole and well-formed is
 * read without the `yaml` package; any other is read with it, which also keeps a ResourceGroup with a
 * shape error (its coerced values are those of the text).
 */
async function inventory_info_scanResourceGroups(files) {
    const found = [];
    for (const f of files) {
        const text = await (0,promises_.readFile)(f.abs, 'utf8');
        if (!text.includes(constants/* ResourceGroupKind */.gM))
            continue;
        for (const shaped of shapeFast(text, f.rel) ?? (await shapeFully(text, f.rel))) {
            if (shaped.object && isResourceGroup(shaped.object)) {
                found.push({ object: shaped.object, source: { file: f.rel, line: shaped.line } });
            }
        }
    }
    return found;
}
/** Every document of a file checked, as the `yaml` package reads it (documents with syntax errors left out). */
async function shapeFully(text, file) {
    await yaml_module_loadYaml();
    return parseYamlFile(text, file).docs.map((doc) => shapeObject(doc.doc.toJS(), doc.doc.contents ?? undefined, doc));
}
/**
 * Reads the inventory info of the package at `dir` (relative to `repoRoot` or absolute, kept inside it):
 * the root Kptfile's `inventory:` and the ResourceGroups in the package's own files (subpackages are not
 * examined, as in kpt). For commands that need only the inventory (status, destroy) and for `init`.
 */
async function readInventoryInfo(dir, opts) {
    const safe = await path_safety_resolveInside(opts.repoRoot, dir, 'package path');
    const tree = await package_tree_walkTree(safe.realRoot, safe.abs);
    const own = tree.yamlFiles.filter((f) => (package_tree_owningPackage(tree.packages, f.rel) ?? safe.rel) === safe.rel);
    const kptfile = tree.packages.includes(safe.rel)
        ? await kptfile_readKptfile(external_node_path_default().join(safe.abs, package_tree_KptfileName), external_node_path_default().posix.join(safe.rel, package_tree_KptfileName))
        : undefined;
    const resolved = resolveInventoryInfo({
        dir: safe.rel,
        kptfile,
        resourceGroups: await inventory_info_scanResourceGroups(own),
    });
    return { ...resolved, errors: [...(kptfile?.errors ?? []), ...resolved.errors] };
}

;// CONCATENATED MODULE: ./src/package/find-packages.ts






async function inventoryFilesOf(tree, realRoot, pkg) {
    const files = [];
    const kptfile = await kptfile_readKptfile(external_node_path_default().join(realRoot, pkg, package_tree_KptfileName), external_node_path_default().posix.join(pkg, package_tree_KptfileName));
    if (kptfile.inventory)
        files.push(kptfile.file);
    const own = tree.yamlFiles.filter((f) => package_tree_owningPackage(tree.packages, f.rel) === pkg);
    for (const rg of await inventory_info_scanResourceGroups(own))
        if (!files.includes(rg.source.file))
            files.push(rg.source.file);
    return files;
}
async function describePackages(tree, realRoot) {
    const infos = [];
    for (const dir of tree.packages) {
        const inventoryFiles = await inventoryFilesOf(tree, realRoot, dir);
        infos.push({ dir, hasInventory: inventoryFiles.length > 0, inventoryFiles });
    }
    return infos;
}
/**
 * Every package (directory with a Kptfile) under `root`, in path order, with its inventory info files.
 * Hidden directories and node_modules are skipped (see walkTree).
 */
async function findPackages(root) {
    const safe = await path_safety_resolveInside(root, '.', 'root');
    return describePackages(await package_tree_walkTree(safe.realRoot, safe.abs), safe.realRoot);
}
/**
 * Groups packages into deployable units: a package with inventory info and no ancestor package with
 * inventory info starts a unit; every package below it belongs to it, and inventory info found in one of
 * those is an error of the unit. Packages with no inventory info anywhere up the tree belong to no unit.
 * Pure, so "which packages did this PR change" can be computed from one walk.
 */
function groupUnits(packages) {
    const roots = packages.filter((p) => p.hasInventory && !packages.some((q) => q !== p && q.hasInventory && isWithin(q.dir, p.dir)));
    return roots.map((unit) => {
        const members = packages.filter((p) => isWithin(unit.dir, p.dir));
        const errors = members
            .filter((p) => p !== unit && p.hasInventory)
            .map((p) => nestedInventoryError(p.dir, unit.dir, p.inventoryFiles[0]));
        return {
            dir: unit.dir,
            packages: [unit.dir, ...members.filter((p) => p !== unit).map((p) => p.dir)],
            errors,
        };
    });
}
/** The deployable units under `root` (see groupUnits), in path order. */
async function findUnits(root) {
    return groupUnits(await findPackages(root));
}
/**
 * Which package and deployable unit a file (relative to `root`, e.g. from a pull request's changed files)
 * belongs to. The file may no longer exist (deleted in the PR); its path must still stay inside `root`.
 * A file in a package that has no inventory info anywhere up the tree maps to no unit, with a note saying
 * so, because such a change is deployed by nothing and the user should know.
 */
async function locateFile(root, relPath) {
    const safe = await path_safety_resolveInside(root, relPath, 'file');
    const isDir = await (0,promises_.stat)(safe.abs).then((s) => s.isDirectory(), () => false);
    const ancestors = [];
    let dir = isDir ? safe.rel : external_node_path_default().posix.dirname(safe.rel);
    for (;;) {
        const hasKptfile = await (0,promises_.stat)(external_node_path_default().join(safe.realRoot, dir, package_tree_KptfileName)).then((s) => s.isFile(), () => false);
        if (hasKptfile)
            ancestors.unshift(dir);
        if (dir === '.')
            break;
        dir = external_node_path_default().posix.dirname(dir);
    }
    const location = { file: safe.rel };
    if (ancestors.length === 0)
        return location;
    location.package = ancestors[ancestors.length - 1];
    const tree = await package_tree_walkTree(safe.realRoot, external_node_path_default().join(safe.realRoot, ancestors[0]));
    for (const pkg of ancestors) {
        if ((await inventoryFilesOf(tree, safe.realRoot, pkg)).length > 0) {
            location.unit = pkg;
            return location;
        }
    }
    location.note = `${safe.rel} is in package "${location.package}", which has no inventory info and no parent package with one, so nothing deploys it; run "kpt-live init ${location.package}" to make it deployable`;
    return location;
}
/** The deployable unit `relPath` belongs to, or undefined (see locateFile for the note to show then). */
async function unitForFile(root, relPath) {
    return (await locateFile(root, relPath)).unit;
}

;// CONCATENATED MODULE: ./src/package/cluster-scoped-kinds.ts

/**
 * Built-in Kubernetes kinds that are cluster-scoped, as `group/Kind` (core group: `/Kind`). Used only where
 * no cluster is asked (the namespace heuristic of `init`, like kpt's use of kyaml's built-in OpenAPI
 * schema); validation always uses discovery.
 */
const clusterScoped = new Set([
    '/Namespace',
    '/Node',
    '/PersistentVolume',
    '/ComponentStatus',
    'apiextensions.k8s.io/CustomResourceDefinition',
    'apiregistration.k8s.io/APIService',
    'admissionregistration.k8s.io/MutatingWebhookConfiguration',
    'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
    'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
    'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
    'rbac.authorization.k8s.io/ClusterRole',
    'rbac.authorization.k8s.io/ClusterRoleBinding',
    'storage.k8s.io/StorageClass',
    'storage.k8s.io/CSIDriver',
    'storage.k8s.io/CSINode',
    'storage.k8s.io/VolumeAttachment',
    'scheduling.k8s.io/PriorityClass',
    'node.k8s.io/RuntimeClass',
    'policy/PodSecurityPolicy',
    'extensions/PodSecurityPolicy',
    'networking.k8s.io/IngressClass',
    'certificates.k8s.io/CertificateSigningRequest',
    'flowcontrol.apiserver.k8s.io/FlowSchema',
    'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
]);
/** True when `apiVersion`/`kind` is a built-in cluster-scoped kind. Unknown kinds answer false (namespaced, as kpt assumes). */
function cluster_scoped_kinds_isKnownClusterScoped(apiVersion, kind) {
    return clusterScoped.has(`${splitApiVersion(apiVersion).group}/${kind}`);
}

;// CONCATENATED MODULE: ./src/package/load-package.ts










/** kpt keeps an object annotated local-config only when the value is exactly "false". */
function isLocalConfig(annotations) {
    const value = annotations?.[constants/* Annotations */.rB.LocalConfig];
    return value !== undefined && value !== 'false';
}
/**
 * Reads the deployable unit at `dir` as `kpt live apply <dir>` would: every `*.yaml`/`*.yml` below it,
 * subpackages included, every document, `kind: List` flattened; the Kptfile, kpt's ResourceGroup and
 * `config.kubernetes.io/local-config` objects are left out. Every object keeps its file and line.
 * Nothing is thrown for bad content: syntax and shape errors, inventory problems (none, several, or one
 * inside a subpackage) are all returned together. A Kptfile with a `pipeline:` gets a notice, because the
 * committed YAML is applied as is. Throws a PackageFailure only when `dir` leaves the repository.
 */
async function load_package_loadPackage(dir, opts) {
    const safe = await path_safety_resolveInside(opts.repoRoot, dir, 'package path');
    const result = { dir: safe.rel, objects: [], notices: [], errors: [] };
    const kind = await (0,promises_.stat)(safe.abs).then((s) => (s.isDirectory() ? 'dir' : 'file'), () => 'missing');
    const isDir = kind === 'dir';
    const tree = isDir ? await package_tree_walkTree(safe.realRoot, safe.abs) : undefined;
    if (!tree?.packages.includes(safe.rel)) {
        result.errors.push({
            message: isDir
                ? `"${safe.rel}" is not a kpt package: it has no Kptfile`
                : kind === 'file'
                    ? `package path "${safe.rel}" is a file, not a directory`
                    : `package directory "${safe.rel}" does not exist`,
            file: safe.rel,
            fix: isDir
                ? `create one with "kpt pkg init ${safe.rel}", or point at the directory that has the Kptfile`
                : 'name the directory that holds the Kptfile',
        });
        return result;
    }
    result.errors.push(...tree.errors);
    const kptfiles = new Map();
    for (const pkg of tree.packages) {
        const info = await kptfile_readKptfile(external_node_path_default().join(safe.realRoot, pkg, package_tree_KptfileName), external_node_path_default().posix.join(pkg, package_tree_KptfileName));
        kptfiles.set(pkg, info);
        result.errors.push(...info.errors);
        if (info.pipeline) {
            result.notices.push(`${info.file} declares a pipeline: the committed YAML is applied as is; run \`kpt fn render ${pkg}\` first (and commit the result) if it is not rendered`);
        }
        if (pkg !== safe.rel && info.inventory)
            result.errors.push(nestedInventoryError(pkg, safe.rel, info.file, info.inventoryLine));
    }
    const resourceGroups = [];
    for (const file of tree.yamlFiles) {
        const decoded = decodeUtf8(await (0,promises_.readFile)(file.abs), file.rel);
        if (decoded.error) {
            if (!opts.inventoryOnly)
                result.errors.push(decoded.error);
            continue;
        }
        if (opts.inventoryOnly && !decoded.text?.includes(constants/* ResourceGroupKind */.gM))
            continue;
        const pkg = package_tree_owningPackage(tree.packages, file.rel) ?? safe.rel;
        for (const shaped of await shapeFile(decoded.text ?? '', file.rel, result.errors, opts.onKinds)) {
            const loaded = { object: shaped.object, source: { file: file.rel, line: shaped.line } };
            if (isResourceGroup(shaped.object)) {
                if (pkg === safe.rel)
                    resourceGroups.push(loaded);
                else
                    result.errors.push(nestedInventoryError(pkg, safe.rel, file.rel, shaped.line, `${shaped.object.kind}/${shaped.object.metadata.name}`));
            }
            else if (!opts.inventoryOnly && !isLocalConfig(shaped.object.metadata.annotations)) {
                result.objects.push(loaded);
            }
        }
    }
    const inv = resolveInventoryInfo({ dir: safe.rel, kptfile: kptfiles.get(safe.rel), resourceGroups });
    if (inv.inventory)
        result.inventory = inv.inventory;
    result.notices.push(...inv.notices);
    result.errors = sortPackageErrors([...result.errors, ...inv.errors]);
    return result;
}

;// CONCATENATED MODULE: ./src/package/init.ts













/** Current time in Unix nanoseconds (ms clock plus the sub-ms part of the monotonic clock). */
function unixNanos() {
    return BigInt(Date.now()) * 1000000n + (process.hrtime.bigint() % 1000000n);
}
/** kpt's generateID: `hex(sha1("<namespace>:<name>"))-<unix nanos>`. */
function generateInventoryId(namespace, name, nanos) {
    return `${createHash('sha1').update(`${namespace}:${name}`).digest('hex')}-${nanos}`;
}
/**
 * The inventory namespace kpt's `live init` picks: the explicit one, else the one namespace every
 * namespaced object states (cluster-scoped kinds skipped, unknown kinds counted as namespaced, one object
 * without a namespace spoils it), else the fallback.
 */
function inventoryNamespace(objects, explicit, fallback) {
    if (explicit)
        return explicit;
    const clusterCrds = packageCrds(objects).filter((c) => c.scope === 'Cluster');
    let shared;
    for (const { object } of objects) {
        if (isKnownClusterScoped(object.apiVersion, object.kind))
            continue;
        const { group } = splitApiVersion(object.apiVersion);
        if (clusterCrds.some((c) => c.group === group && c.kind === object.kind))
            continue;
        const ns = object.metadata.namespace;
        if (!ns || (shared !== undefined && ns !== shared))
            return fallback;
        shared = ns;
    }
    return shared ?? fallback;
}
/** Quotes a value the way kpt's YAML encoder does when it would otherwise read as a number, bool or null. */
function yamlScalar(value) {
    const ambiguous = /^(?:[-+]?[\d_]+(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?|0x[\da-fA-F]+|0o[0-7]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|)$/;
    return ambiguous.test(value) || !/^[A-Za-z0-9][-A-Za-z0-9_.]*$/.test(value) ? JSON.stringify(value) : value;
}
/** resourcegroup.yaml exactly as `kpt live init` writes it. */
function renderResourceGroup(name, namespace, id) {
    return [
        `apiVersion: ${ResourceGroupApiVersion}`,
        `kind: ${ResourceGroupKind}`,
        'metadata:',
        `  name: ${yamlScalar(name)}`,
        `  namespace: ${yamlScalar(namespace)}`,
        '  labels:',
        `    ${Labels.InventoryId}: ${yamlScalar(id)}`,
        '',
    ].join('\n');
}
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
function checkValues(name, namespace, id) {
    const errors = [];
    if (!dnsSubdomain.test(name) || name.length > 253) {
        errors.push({
            message: `inventory name "${name}" is not a valid object name`,
            fix: 'use lower-case letters, digits, "-" and "." (a DNS subdomain), e.g. --name inventory-web',
        });
    }
    if (!dnsLabel.test(namespace) || namespace.length > 63) {
        errors.push({
            message: `inventory namespace "${namespace}" is not a valid namespace name`,
            fix: 'use at most 63 lower-case letters, digits and "-", e.g. --namespace web',
        });
    }
    if (!id || !labelValue.test(id) || id.length > 63) {
        errors.push({
            message: `inventory id "${id}" is not a valid label value`,
            fix: 'use at most 63 letters, digits, "-", "_" and "." that start and end with a letter or digit, or leave --inventory-id out to generate one',
        });
    }
    return errors;
}
/**
 * Writes `resourcegroup.yaml` like `kpt live init <dir>`, so either tool can apply the package afterwards.
 * Refuses when inventory info already exists (Kptfile `inventory:` or a ResourceGroup), unless `force`,
 * which overwrites resourcegroup.yaml and removes the Kptfile's section. Never throws for package
 * problems: they come back as errors with kpt's wording and a fix; a path outside `root` throws.
 * `dir` is relative to `root` when a root is given.
 */
async function initPackage(dir, opts = {}) {
    const root = opts.root ?? dir;
    const safe = await resolveInside(root, opts.root ? dir : '.', 'package path');
    const rgRel = path.posix.join(safe.rel, ResourceGroupFile);
    const rgPath = await resolveInside(root, path.join(safe.abs, ResourceGroupFile), 'inventory file');
    const kptfileExists = await stat(path.join(safe.abs, KptfileName)).then((s) => s.isFile(), () => false);
    const fallback = opts.defaultNamespace || 'default';
    const fail = (errors, ns = fallback) => ({
        ok: false,
        message: `initializing "${ResourceGroupFile}" data (namespace: ${ns})...failed`,
        errors,
    });
    if (!kptfileExists) {
        return fail([
            {
                message: `"${safe.rel}" is not a kpt package: it has no Kptfile`,
                file: safe.rel,
                fix: `create one with "kpt pkg init ${safe.rel}" first`,
            },
        ]);
    }
    const loaded = opts.namespace ? undefined : await loadPackage(safe.abs, { repoRoot: root });
    const namespace = inventoryNamespace(loaded?.objects ?? [], opts.namespace, fallback).trim();
    const kptfile = await readKptfile(path.join(safe.abs, KptfileName), path.posix.join(safe.rel, KptfileName));
    if (kptfile.errors.length > 0)
        return fail(kptfile.errors, namespace);
    const tree = await walkTree(safe.realRoot, safe.abs);
    const own = tree.yamlFiles.filter((f) => owningPackage(tree.packages, f.rel) === safe.rel);
    const groups = await scanResourceGroups(own);
    const errors = [];
    if (kptfile.inventory && !opts.force) {
        errors.push({
            message: 'inventory information already set within Kptfile for package',
            file: kptfile.file,
            line: kptfile.inventoryLine,
            fix: `migrate it with "kpt live migrate", or pass --force to replace it with ${ResourceGroupFile} (add --name and --inventory-id with the Kptfile's values to keep the same inventory)`,
        });
    }
    for (const rg of groups) {
        if (rg.source.file === rgRel && opts.force)
            continue;
        errors.push({
            message: 'inventory information already set for package',
            file: rg.source.file,
            line: rg.source.line,
            object: `${ResourceGroupKind}/${rg.object.metadata.name}`,
            fix: rg.source.file === rgRel
                ? 'changing it after the package has been applied can lead to undesired results (the objects stay owned by the old inventory id); pass --force to overwrite it'
                : `delete this ResourceGroup first: init writes ${rgRel}, and a package may have only one`,
        });
    }
    if (errors.length > 0)
        return fail(errors, namespace);
    const name = opts.name ||
        `inventory-${(opts.randomSuffix ?? (() => String(randomInt(0, 100_000_000)).padStart(8, '0')))()}`;
    const id = opts.inventoryId || generateInventoryId(namespace, name, (opts.now ?? unixNanos)());
    const invalid = checkValues(name, namespace, id);
    if (invalid.length > 0)
        return fail(invalid, namespace);
    await writeFile(rgPath.abs, renderResourceGroup(name, namespace, id), { mode: 0o600 });
    if (kptfile.inventory) {
        const kptfileAbs = path.join(safe.abs, KptfileName);
        const doc = (await loadYaml()).parseDocument(await readFile(kptfileAbs, 'utf8'));
        doc.delete('inventory');
        await writeFile(kptfileAbs, doc.toString());
    }
    return {
        ok: true,
        message: `initializing "${ResourceGroupFile}" data (namespace: ${namespace})...success`,
        inventory: { name, namespace, id, source: 'resourcegroup', file: rgRel, line: 1 },
        errors: [],
    };
}

// EXTERNAL MODULE: ./src/common/conflict-settings.ts
var conflict_settings = __webpack_require__(6493);
;// CONCATENATED MODULE: ./src/plan/kind-order.ts

/**
 * cli-utils' apply order of kinds (pkg/ordering/sort.go, v0.37.2). Kinds listed first get negative
 * indexes in this order, unlisted kinds 0, ValidatingWebhookConfiguration 1 (it goes last so webhooks
 * cannot reject the objects applied with them).
 */
const ORDER_FIRST = [
    ['', 'Namespace'],
    ['', 'ResourceQuota'],
    ['storage.k8s.io', 'StorageClass'],
    ['apiextensions.k8s.io', 'CustomResourceDefinition'],
    ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration'],
    ['', 'ServiceAccount'],
    ['extensions', 'PodSecurityPolicy'],
    ['policy', 'PodSecurityPolicy'],
    ['rbac.authorization.k8s.io', 'Role'],
    ['rbac.authorization.k8s.io', 'ClusterRole'],
    ['rbac.authorization.k8s.io', 'RoleBinding'],
    ['rbac.authorization.k8s.io', 'ClusterRoleBinding'],
    ['', 'ConfigMap'],
    ['', 'Secret'],
    ['', 'Service'],
    ['', 'LimitRange'],
    ['scheduling.k8s.io', 'PriorityClass'],
    ['extensions', 'Deployment'],
    ['apps', 'Deployment'],
    ['apps', 'StatefulSet'],
    ['batch', 'CronJob'],
    ['policy', 'PodDisruptionBudget'],
];
const ORDER_LAST = [
    ['admissionregistration.k8s.io', 'ValidatingWebhookConfiguration'],
];
const groupKindKey = (group, kind) => `${group}/${kind}`;
const KIND_INDEX = new Map([
    ...ORDER_FIRST.map(([g, k], i) => [groupKindKey(g, k), i - ORDER_FIRST.length]),
    ...ORDER_LAST.map(([g, k], i) => [groupKindKey(g, k), i + 1]),
]);
/** The kind's position in cli-utils' order: negative for the kinds applied first, 0 for the rest, 1 last. */
function kindOrderIndex(group, kind) {
    return KIND_INDEX.get(groupKindKey(group, kind)) ?? 0;
}
/**
 * The order objects are applied in within one wave, as cli-utils sorts them (ordering.SortableMetas):
 * kind index, then group, kind, namespace and name. Deterministic whatever the input order, so
 * events and previews come out the same on every run.
 */
function compareForApply(a, b) {
    return kindOrderIndex(a.group, a.kind) - kindOrderIndex(b.group, b.kind) || (0,object_id/* compareIds */.q3)(a, b);
}

;// CONCATENATED MODULE: ./src/plan/waves.ts


/**
 * cli-utils' Graph.Sort as a Kahn layering: take every vertex with no remaining outgoing edge as one
 * layer, remove it, repeat. Done with out-degree counters and reverse adjacency lists, so it costs
 * O(V + E) instead of cli-utils' repeated scans. Edges whose ends are not vertices are ignored.
 */
function layerGraph(ids, edges) {
    const outDegree = new Map();
    const dependents = new Map();
    for (const id of ids) {
        outDegree.set((0,object_id/* idKey */.T4)(id), 0);
        dependents.set((0,object_id/* idKey */.T4)(id), []);
    }
    for (const { from, to } of edges) {
        const fromKey = (0,object_id/* idKey */.T4)(from);
        const toKey = (0,object_id/* idKey */.T4)(to);
        if (!outDegree.has(fromKey) || !outDegree.has(toKey))
            continue;
        outDegree.set(fromKey, (outDegree.get(fromKey) ?? 0) + 1);
        dependents.get(toKey)?.push(from);
    }
    const layers = [];
    let current = ids.filter((id) => outDegree.get((0,object_id/* idKey */.T4)(id)) === 0);
    let placed = 0;
    while (current.length > 0) {
        layers.push(current);
        placed += current.length;
        const next = [];
        for (const done of current) {
            for (const dependent of dependents.get((0,object_id/* idKey */.T4)(done)) ?? []) {
                const key = (0,object_id/* idKey */.T4)(dependent);
                const left = (outDegree.get(key) ?? 0) - 1;
                outDegree.set(key, left);
                if (left === 0)
                    next.push(dependent);
            }
        }
        current = next;
    }
    if (placed === ids.length)
        return { layers };
    const leftKeys = new Set(ids.filter((id) => (outDegree.get((0,object_id/* idKey */.T4)(id)) ?? 0) > 0).map(object_id/* idKey */.T4));
    const cycleIds = ids.filter((id) => leftKeys.has((0,object_id/* idKey */.T4)(id))).sort(compareForApply);
    const cycleEdges = edges
        .filter((e) => leftKeys.has((0,object_id/* idKey */.T4)(e.from)) && leftKeys.has((0,object_id/* idKey */.T4)(e.to)))
        .map(({ from, to }) => ({ from, to }))
        .sort((a, b) => (0,object_id/* compareIds */.q3)(a.from, b.from) || (0,object_id/* compareIds */.q3)(a.to, b.to));
    return { layers, cycle: { ids: cycleIds, edges: cycleEdges } };
}
/**
 * cli-utils' HydrateSetList: keeps only the ids in `keep` (apply objects, or prune objects), sorts each
 * wave by kind order and drops the waves left empty.
 */
function selectWaves(layers, keep) {
    return layers
        .map((layer) => layer.filter((id) => keep.has((0,object_id/* idKey */.T4)(id))).sort(compareForApply))
        .filter((wave) => wave.length > 0);
}
/**
 * cli-utils' ReverseSetList: prune and destroy undo apply order, so both the waves and the objects
 * inside each wave are reversed (dependents go before what they depend on).
 */
function reverseWaves(waves) {
    return waves.map((wave) => [...wave].reverse()).reverse();
}

;// CONCATENATED MODULE: ./src/package/scope.ts

function isCrd(obj) {
    return (obj.kind === 'CustomResourceDefinition' &&
        (0,kube_object/* splitApiVersion */.Np)(obj.apiVersion).group === 'apiextensions.k8s.io');
}
/**
 * The types defined by CRDs in the package (`spec.group`, `spec.names.kind`, `spec.versions[].name` or the
 * v1beta1 `spec.version`, `spec.scope`), so their custom resources can be validated before the CRD exists
 * in the cluster, as cli-utils' LookupResourceScope does.
 */
function scope_packageCrds(objects) {
    const crds = [];
    for (const { object, source } of objects) {
        if (!isCrd(object))
            continue;
        const group = (0,kube_object/* getPath */.Yn)(object, ['spec', 'group']);
        const kind = (0,kube_object/* getPath */.Yn)(object, ['spec', 'names', 'kind']);
        const scope = (0,kube_object/* getPath */.Yn)(object, ['spec', 'scope']);
        if (typeof group !== 'string' || typeof kind !== 'string')
            continue;
        const versions = [];
        const list = (0,kube_object/* getPath */.Yn)(object, ['spec', 'versions']);
        if (Array.isArray(list)) {
            for (const v of list) {
                const name = (0,kube_object/* getPath */.Yn)(v, ['name']);
                if (typeof name === 'string')
                    versions.push(name);
            }
        }
        const single = (0,kube_object/* getPath */.Yn)(object, ['spec', 'version']);
        if (typeof single === 'string' && !versions.includes(single))
            versions.push(single);
        crds.push({ group, kind, versions, scope: scope === 'Cluster' ? 'Cluster' : 'Namespaced', source });
    }
    return crds;
}
/**
 * The scope of an object's type: the cluster's answer first, else a CRD in the package that defines this
 * group, kind and version. Undefined means the type is unknown (an error before anything is sent).
 */
function scopeOf(obj, lookup, crds) {
    const { group, version } = (0,kube_object/* splitApiVersion */.Np)(obj.apiVersion);
    const served = lookup(group, version, obj.kind);
    if (served)
        return served;
    return crds.find((c) => c.group === group && c.kind === obj.kind && c.versions.includes(version))?.scope;
}

;// CONCATENATED MODULE: ./src/package/dependency-check.ts




const annotationPrefix = `invalid "${constants/* Annotations */.rB.DependsOn}" annotation`;
const refFormats = 'write each reference as <group>/namespaces/<namespace>/<Kind>/<name> (namespaced) or <group>/<Kind>/<name> (cluster-scoped), comma-separated; the core group is empty, e.g. /namespaces/default/ConfigMap/cm';
/**
 * Checks `config.kubernetes.io/depends-on` the way cli-utils validates its dependency graph, with its
 * messages: malformed references, the same reference twice (duplicate), a reference to an object that is
 * neither in the package nor in `extraIds` (external: not supported), and cycles, including the implicit
 * edges from objects to their Namespace and CRD when those are in the package. `objects` must already
 * have their namespaces defaulted, since references name namespaces explicitly.
 */
function checkDependencies(objects, extraIds = []) {
    const errors = [];
    const known = new Map();
    for (const id of extraIds)
        known.set((0,object_id/* idKey */.T4)(id), id);
    for (const o of objects)
        known.set((0,object_id/* idKey */.T4)((0,object_id/* idOf */.TH)(o.object)), (0,object_id/* idOf */.TH)(o.object));
    const edges = [];
    for (const o of objects) {
        const value = o.object.metadata.annotations?.[constants/* Annotations */.rB.DependsOn];
        if (value === undefined)
            continue;
        const from = (0,object_id/* idOf */.TH)(o.object);
        const at = { file: o.source.file, line: o.source.line, object: (0,object_id/* shortName */.EU)(from) };
        let refs;
        try {
            refs = (0,object_id/* parseDependsOn */.ql)(value);
        }
        catch (err) {
            errors.push({ ...at, message: err.message, fix: refFormats });
            continue;
        }
        const seen = [];
        for (const to of refs) {
            const edgeText = `${(0,object_id/* formatRef */.rq)(from)} -> ${(0,object_id/* formatRef */.rq)(to)}`;
            if (seen.some((s) => (0,object_id/* sameId */.s)(s, to))) {
                errors.push({
                    ...at,
                    message: `${annotationPrefix}: duplicate dependency: ${edgeText}`,
                    fix: `list ${(0,object_id/* formatRef */.rq)(to)} only once`,
                });
                continue;
            }
            seen.push(to);
            if (!known.has((0,object_id/* idKey */.T4)(to))) {
                const near = [...known.values()].find((k) => k.group === to.group && k.kind === to.kind && k.name === to.name && k.namespace !== to.namespace);
                const hint = near
                    ? `did you mean "${(0,object_id/* formatRef */.rq)(near)}"? (a namespaced dependency must spell its namespace)`
                    : `add ${(0,object_id/* shortName */.EU)(to)} to the package, or remove it from the annotation (dependencies outside the package are not supported)`;
                errors.push({ ...at, message: `${annotationPrefix}: external dependency: ${edgeText}`, fix: hint });
                continue;
            }
            edges.push({ from, to });
        }
    }
    // Implicit edges, as cli-utils adds them: a custom resource depends on its CRD, a namespaced object on its
    // Namespace, when those are applied by the same package.
    const crds = objects.filter((o) => isCrd(o.object));
    const namespaces = objects.filter((o) => o.object.kind === 'Namespace' && o.object.apiVersion === 'v1');
    for (const o of objects) {
        const from = (0,object_id/* idOf */.TH)(o.object);
        for (const crd of crds) {
            const spec = crd.object.spec;
            if (spec?.group === from.group && spec?.names?.kind === from.kind)
                edges.push({ from, to: (0,object_id/* idOf */.TH)(crd.object) });
        }
        const ns = namespaces.find((n) => n.object.metadata.name === from.namespace);
        if (ns && from.namespace)
            edges.push({ from, to: (0,object_id/* idOf */.TH)(ns.object) });
    }
    const uniqueEdges = new Map(edges.map((e) => [`${(0,object_id/* idKey */.T4)(e.from)}|${(0,object_id/* idKey */.T4)(e.to)}`, e]));
    // what cli-utils' graph.Sort leaves unsorted, as the plan lays it out: on, or depending on, a cycle
    const cyclic = new Set((layerGraph([...known.values()], [...uniqueEdges.values()]).cycle?.ids ?? []).map(object_id/* idKey */.T4));
    if (cyclic.size > 0) {
        const cycleEdges = [...uniqueEdges.values()]
            .filter((e) => cyclic.has((0,object_id/* idKey */.T4)(e.from)) && cyclic.has((0,object_id/* idKey */.T4)(e.to)))
            .sort((a, b) => (0,object_id/* compareIds */.q3)(a.from, b.from) || (0,object_id/* compareIds */.q3)(a.to, b.to));
        const message = `cyclic dependency:${cycleEdges.map((e) => `\n- ${(0,object_id/* formatRef */.rq)(e.from)} -> ${(0,object_id/* formatRef */.rq)(e.to)}`).join('')}`;
        for (const o of objects) {
            const id = (0,object_id/* idOf */.TH)(o.object);
            if (!cyclic.has((0,object_id/* idKey */.T4)(id)))
                continue;
            errors.push({
                file: o.source.file,
                line: o.source.line,
                object: (0,object_id/* shortName */.EU)(id),
                message,
                fix: `remove one of these ${constants/* Annotations */.rB.DependsOn} references to break the cycle (objects also depend on their Namespace and CRD when the package applies them)`,
            });
        }
    }
    return errors;
}

;// CONCATENATED MODULE: ./src/package/validate.ts







/**
 * Runs every package rule and returns all problems at once, before anything is sent to a cluster (kpt's
 * ExitEarly validation policy). Rules checked while loading (see loadPackage / shapeObject): invalid YAML,
 * missing apiVersion/kind/metadata.name, non-string label and annotation values, inventory info problems.
 * Rules checked here:
 * - objects carrying the inventory-id label (kpt: "Package has multiple inventory object templates");
 * - unknown types: not served (per `scope`) and not defined by a CRD in the package;
 * - a namespace on a cluster-scoped object; namespaced objects without one get `defaultNamespace`;
 * - duplicate objects (same group, kind, namespace and name, after defaulting), naming both places;
 * - `config.kubernetes.io/depends-on`: malformed, duplicate, external and cyclic (checkDependencies);
 * - `kpt-live-action.dev/conflicts`: an unknown mode or class, or a manager both taken and kept.
 */
function validatePackage(loaded, opts) {
    const errors = [];
    const crds = scope_packageCrds(loaded.objects);
    const objects = [];
    for (const item of loaded.objects) {
        // only metadata.namespace is filled in below: a copy of the top level and of metadata is enough
        const object = { ...item.object, metadata: { ...item.object.metadata } };
        const at = { file: item.source.file, line: item.source.line, object: (0,object_id/* shortName */.EU)((0,object_id/* idOf */.TH)(object)) };
        if (object.metadata.labels?.[constants/* Labels */.gC.InventoryId] !== undefined) {
            errors.push({
                ...at,
                message: `carries the inventory label "${constants/* Labels */.gC.InventoryId}": Package has multiple inventory object templates. The package should have one and only one inventory object template.`,
                fix: `remove the "${constants/* Labels */.gC.InventoryId}" label (only the ResourceGroup in resourcegroup.yaml carries it)`,
            });
        }
        const conflicts = object.metadata.annotations?.[conflict_settings/* ConflictsAnnotation */.L1];
        if (conflicts !== undefined) {
            try {
                (0,conflict_settings/* parseConflictsAnnotation */.K9)(conflicts);
            }
            catch (err) {
                errors.push({
                    ...at,
                    message: err.message,
                    fix: `write a mode (take-hand-edits, fail, force) and/or take=MANAGER, keep=MANAGER, separated by commas or spaces, e.g. "${conflict_settings/* ConflictsAnnotation */.L1}: keep=kubectl-label"`,
                });
            }
        }
        const scope = scopeOf(object, opts.scope, crds);
        if (scope === undefined) {
            const { group } = (0,kube_object/* splitApiVersion */.Np)(object.apiVersion);
            const sameKind = crds.filter((c) => c.group === group && c.kind === object.kind);
            errors.push({
                ...at,
                message: `unknown resource type: apiVersion "${object.apiVersion}", kind "${object.kind}" is neither served by the cluster nor defined by a CustomResourceDefinition in the package`,
                fix: sameKind.length > 0
                    ? `the CRD at ${sameKind[0].source.file}:${sameKind[0].source.line} defines ${object.kind} in version(s) ${sameKind[0].versions.join(', ')}: use one of them in apiVersion`
                    : 'check apiVersion and kind for typos; for a custom resource, install its CRD first or add the CRD to the package',
            });
        }
        else if (scope === 'Cluster' && object.metadata.namespace) {
            errors.push({
                ...at,
                message: `resource is cluster-scoped but has a non-empty namespace "${object.metadata.namespace}"`,
                fix: `remove metadata.namespace (${object.kind} is cluster-scoped)`,
            });
        }
        else if (scope === 'Namespaced' && !object.metadata.namespace) {
            object.metadata.namespace = opts.defaultNamespace;
        }
        objects.push({ object, source: item.source });
    }
    const firstSeen = new Map();
    for (const item of objects) {
        const id = (0,object_id/* idOf */.TH)(item.object);
        const key = (0,object_id/* idKey */.T4)(id);
        const first = firstSeen.get(key);
        if (!first) {
            firstSeen.set(key, item);
            continue;
        }
        const where = id.namespace ? ` in namespace "${id.namespace}"` : '';
        errors.push({
            file: item.source.file,
            line: item.source.line,
            object: (0,object_id/* shortName */.EU)(id),
            message: `duplicate object: ${(0,object_id/* shortName */.EU)(id)}${where}${id.group ? ` (group ${id.group})` : ''} is also defined at ${first.source.file}:${first.source.line}`,
            fix: 'remove one of the two definitions, or give them different names',
        });
    }
    errors.push(...checkDependencies(objects, opts.extraIds));
    return { objects, errors: sortPackageErrors([...loaded.errors, ...errors]) };
}

;// CONCATENATED MODULE: ./src/package/index.ts
/**
 * The package model: everything the engine knows about a kpt package before it talks to a cluster.
 * find → load → validate, plus inventory info and `init`. Every problem is a PackageError with file,
 * line, object and fix; nothing here throws for bad package content.
 */










// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
var external_node_os_default = /*#__PURE__*/__webpack_require__.n(external_node_os_);
;// CONCATENATED MODULE: ./src/changes/inventory-at-commit.ts






const inventory_at_commit_isYaml = (f) => f.endsWith('.yaml') || f.endsWith('.yml');
const isKptfile = (f) => f === 'Kptfile' || f.endsWith('/Kptfile');
/** Every path in `commit`'s tree (blobs only, no symlinks or submodules), optionally below `dir`. */
async function filesAtCommit(repoDir, commit, dir = '.') {
    const spec = dir === '.' ? [] : ['--', dir];
    const r = await git(repoDir, [
        '--literal-pathspecs',
        'ls-tree',
        '-r',
        '-z',
        '--full-tree',
        commit,
        ...spec,
    ]);
    const files = [];
    for (const entry of r.stdout.split('\0')) {
        const tab = entry.indexOf('\t');
        if (tab < 0)
            continue;
        const [mode, type] = entry.slice(0, tab).split(' ');
        if (type === 'blob' && mode !== '120000')
            files.push(entry.slice(tab + 1));
    }
    return files;
}
/**
 * Copies what package discovery reads (Kptfiles, and YAML files that mention ResourceGroup) from
 * `commit` under `dirs` into `dest` at the same relative paths, so the package model's own rules
 * (findUnits, readInventoryInfo) answer for an old commit exactly as they do for the checkout, without
 * touching the working tree. Returns the directories that held a Kptfile at that commit.
 */
async function materialize(repoDir, commit, dirs, dest) {
    const packages = new Set();
    for (const dir of new Set(dirs)) {
        const files = await filesAtCommit(repoDir, commit, dir);
        const spec = dir === '.' ? [] : ['--', dir];
        const grep = await git(repoDir, ['--literal-pathspecs', 'grep', '-l', '-z', '-F', '-e', 'ResourceGroup', commit, ...spec], { allowFail: true });
        const mentions = new Set(grep.stdout
            .split('\0')
            .filter(Boolean)
            .map((hit) => hit.slice(commit.length + 1)));
        for (const file of files) {
            if (isKptfile(file))
                packages.add(external_node_path_default().posix.dirname(file));
            if (!isKptfile(file) && !(inventory_at_commit_isYaml(file) && mentions.has(file)))
                continue;
            const text = (await git(repoDir, ['cat-file', 'blob', `${commit}:${file}`])).stdout;
            const abs = external_node_path_default().join(dest, ...file.split('/'));
            await (0,promises_.mkdir)(external_node_path_default().dirname(abs), { recursive: true });
            await (0,promises_.writeFile)(abs, text);
        }
    }
    return packages;
}
async function withCommitTree(repoDir, commit, dirs, opts, use) {
    const present = await ensureCommits(repoDir, [commit], opts);
    if (!present.ok)
        throw new Error(`cannot read commit ${commit}: ${present.error}`);
    const tmp = await (0,promises_.mkdtemp)(external_node_path_default().join(external_node_os_default().tmpdir(), 'kpt-live-base-'));
    try {
        return await use(tmp, await materialize(repoDir, commit, dirs, tmp));
    }
    finally {
        await (0,promises_.rm)(tmp, { recursive: true, force: true });
    }
}
/**
 * The inventory info of the package at `unitDir` as it was at `commit` (resourcegroup.yaml or the
 * Kptfile's `inventory:`, with kpt's rules from src/package). A pull request that deletes a package
 * leaves nothing in the checkout to read, yet its preview must say what the removal prunes, and the
 * apply after merge must find the inventory to destroy. Fetches `commit` when the checkout lacks it.
 */
async function readInventoryAtCommit(repoDir, commit, unitDir, opts = {}) {
    return withCommitTree(repoDir, commit, [unitDir], opts, async (root, packages) => {
        if (!packages.has(unitDir)) {
            return {
                errors: [
                    {
                        message: `there is no package (no Kptfile) at "${unitDir}" in commit ${commit}`,
                        file: external_node_path_default().posix.join(unitDir, 'Kptfile'),
                        fix: 'check the package path and the commit the change is compared with',
                    },
                ],
                notices: [],
            };
        }
        return readInventoryInfo(unitDir, { repoRoot: root });
    });
}
/**
 * The deployable units (CONTRACT.md rules, via src/package's groupUnits) found at `commit` below each of
 * `roots` (package directories at that commit). Used to tell which unit a deleted file belonged to.
 */
async function unitsAtCommit(repoDir, commit, roots, opts = {}) {
    return withCommitTree(repoDir, commit, roots, opts, async (root) => groupUnits(await findPackages(root)));
}
/** The directories holding a Kptfile at `commit`, in the whole tree (one `git ls-tree`). */
async function packageDirsAtCommit(repoDir, commit) {
    return new Set((await filesAtCommit(repoDir, commit)).filter(isKptfile).map((f) => external_node_path_default().posix.dirname(f)));
}

;// CONCATENATED MODULE: ./src/changes/explicit-packages.ts



const GLOB_CHARS = /[*?[]/;
/**
 * Compiles a path glob to a RegExp over posix paths relative to the repository root: `*` and `?` stay
 * within one path segment, a `**` segment spans any number of segments (`deploy/**` is everything below
 * deploy, a leading `**` segment matches at any depth, `**` alone is everything), `[abc]` is a character
 * class. No braces or
 * negation: the `packages` input lists what to deploy, one entry per line, and must read plainly.
 */
function globToRegExp(glob) {
    if (glob === '**')
        return /^.*$/;
    let re = '';
    for (let i = 0; i < glob.length; i++) {
        const ch = glob[i];
        if (ch === '*' && glob[i + 1] === '*') {
            const atStart = i === 0 || glob[i - 1] === '/';
            const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
            if (atStart && glob[i + 2] === '/') {
                re += '(?:.*/)?';
                i += 2;
            }
            else if (atStart && atEnd) {
                re += '.*';
                i += 1;
            }
            else {
                re += '[^/]*';
                i += 1;
            }
        }
        else if (ch === '*')
            re += '[^/]*';
        else if (ch === '?')
            re += '[^/]';
        else if (ch === '[') {
            const close = glob.indexOf(']', i + 1);
            if (close < 0)
                throw new Error(`glob "${glob}": "[" without "]"`);
            const body = glob
                .slice(i + 1, close)
                .replace(/^!/, '^')
                .replace(/\\/g, '\\\\');
            re += `(?!/)[${body}]`;
            i = close;
        }
        else
            re += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
    }
    return new RegExp(`^${re}$`);
}
/** `./deploy/app/` → `deploy/app`; `` or `./` → `.`. */
function normalizeEntry(entry) {
    const p = external_node_path_default().posix.normalize(entry.replace(/\\/g, '/')).replace(/\/+$/, '');
    return p === '' || p === './' ? '.' : p;
}
/**
 * Resolves the `packages` input (one path or glob per line; blank lines and `#` comments ignored) to
 * deployable units, in path order. A plain path must be a package directory; a subpackage or a
 * directory inside a unit selects that unit, with a note. A glob matches package directories, each
 * standing for its unit; packages nothing deploys are noted. A path that does not exist, is not in a
 * deployable unit, or a glob that matches nothing throws, naming the input line, so a typo never turns
 * into a run that deploys nothing and succeeds.
 */
async function resolveExplicitPackages(repoRoot, patterns) {
    const lines = (typeof patterns === 'string' ? patterns.split(/\r?\n/) : patterns)
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('#'));
    const problems = [];
    const notes = [];
    const selected = new Set();
    let packages;
    for (const line of lines) {
        const entry = normalizeEntry(line);
        if (entry === '..' || entry.startsWith('../') || external_node_path_default().posix.isAbsolute(entry)) {
            problems.push(`"${line}" is outside the repository; list paths relative to its root`);
            continue;
        }
        if (GLOB_CHARS.test(entry)) {
            packages ??= await findPackages(repoRoot);
            const units = groupUnits(packages);
            let re;
            try {
                re = globToRegExp(entry);
            }
            catch (err) {
                problems.push(err.message);
                continue;
            }
            const matched = packages.filter((p) => re.test(p.dir));
            if (matched.length === 0)
                problems.push(`"${line}" matches no package directory (a directory with a Kptfile)`);
            for (const p of matched) {
                const unit = units.find((u) => u.packages.includes(p.dir));
                if (unit)
                    selected.add(unit.dir);
                else
                    notes.push(`"${line}" matches package "${p.dir}", which has no inventory info; nothing deploys it`);
            }
            continue;
        }
        const isDir = await (0,promises_.stat)(external_node_path_default().join(repoRoot, entry)).then((s) => s.isDirectory(), () => undefined);
        if (isDir === undefined) {
            problems.push(`"${line}" does not exist in the checkout`);
            continue;
        }
        if (!isDir) {
            problems.push(`"${line}" is a file; list the package directory that holds it`);
            continue;
        }
        try {
            const loc = await locateFile(repoRoot, entry);
            if (!loc.unit) {
                problems.push(loc.note ?? `"${line}" is not in a package (no Kptfile in it or above it)`);
                continue;
            }
            if (loc.unit !== entry)
                notes.push(`"${line}" is part of the deployable unit "${loc.unit}", which is used`);
            selected.add(loc.unit);
        }
        catch (err) {
            if (!(err instanceof PackageFailure))
                throw err;
            problems.push(`"${line}": ${err.message}`);
        }
    }
    if (problems.length) {
        throw new Error(`input "packages": ${problems.join('; ')}`);
    }
    return { paths: [...selected].sort(), notes: [...new Set(notes)] };
}

;// CONCATENATED MODULE: ./src/changes/changed-packages.ts







const changed_packages_isWithin = (ancestor, p) => ancestor === '.' || p === ancestor || p.startsWith(`${ancestor}/`);
function ancestorsOf(file) {
    const dirs = [];
    for (let d = external_node_path_default().posix.dirname(file);; d = external_node_path_default().posix.dirname(d)) {
        dirs.unshift(d);
        if (d === '.')
            return dirs;
    }
}
const exists = (abs) => (0,promises_.lstat)(abs).then(() => true, () => false);
/**
 * Maps a change set onto deployable units (CONTRACT.md: a changed file belongs to its topmost package
 * with inventory info). Both paths of a rename count. A deleted file that no package in the checkout
 * claims is looked up in the base commit: if its unit's directory is gone from the checkout, the unit is
 * reported `removed` with the base commit, so the caller can read its inventory there (readInventoryAtCommit)
 * and preview or destroy it. A unit that only moved (same inventory at a new path) is not removed: the
 * apply of the new path takes its inventory over. `repoRoot` must be the top of the git checkout, since
 * change-set paths are relative to it.
 */
async function changedPackages(repoRoot, changeSet, opts = {}) {
    const notes = [];
    const warnings = [];
    if (changeSet.all) {
        const units = (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false }));
        return { units, notes, warnings };
    }
    const present = new Set();
    /** Files gone from the checkout that no unit in it claims, with the note locateFile gave (if any). */
    const gone = new Map();
    const paths = new Set(changeSet.files.flatMap((f) => (f.previous ? [f.path, f.previous] : [f.path])));
    for (const file of paths) {
        try {
            const loc = await locateFile(repoRoot, file);
            if (loc.unit)
                present.add(loc.unit);
            else if (!(await exists(external_node_path_default().join(repoRoot, file))))
                gone.set(file, loc.note);
            else if (loc.note)
                notes.push(loc.note);
        }
        catch (err) {
            if (!(err instanceof PackageFailure))
                throw err;
            warnings.push(`${file}: ${err.errors.map(formatPackageError).join('; ')}`);
        }
    }
    const { units: removed, explained } = gone.size
        ? await removedUnits(repoRoot, changeSet.base, [...gone.keys()], opts, warnings)
        : { units: [], explained: new Set() };
    for (const [file, note] of gone)
        if (note && !explained.has(file))
            notes.push(note);
    for (const unit of [...removed]) {
        const moved = await movedTo(repoRoot, changeSet.base ?? '', unit, [...present], opts);
        if (moved) {
            removed.splice(removed.indexOf(unit), 1);
            notes.push(`package "${unit}" moved to "${moved}" with the same inventory: it is applied at its new path, not destroyed`);
        }
    }
    const units = [
        ...[...present].map((p) => ({ path: p, removed: false })),
        ...removed.map((p) => ({ path: p, removed: true, baseCommit: changeSet.base })),
    ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { units, notes: [...new Set(notes)], warnings };
}
/**
 * Units at `base` that held some of the `gone` files and whose directory has no Kptfile in the checkout,
 * and the files they explain.
 */
async function removedUnits(repoRoot, base, gone, opts, warnings) {
    const units = new Set();
    const explained = new Set();
    if (!base) {
        warnings.push(`the change set names no base commit, so deleted packages cannot be found (${gone[0]}, ...)`);
        return { units: [], explained };
    }
    const fetched = await ensureCommits(repoRoot, [base], opts);
    if (!fetched.ok) {
        warnings.push(`cannot read the base commit to find deleted packages: ${fetched.error}`);
        return { units: [], explained };
    }
    const basePackages = await packageDirsAtCommit(repoRoot, base);
    const roots = new Set();
    for (const file of gone) {
        const top = ancestorsOf(file).find((d) => basePackages.has(d));
        if (top)
            roots.add(top);
    }
    if (roots.size === 0)
        return { units: [], explained };
    const baseUnits = await unitsAtCommit(repoRoot, base, [...roots], opts);
    for (const file of gone) {
        const unit = baseUnits.find((u) => changed_packages_isWithin(u.dir, file));
        if (unit && !(await exists(external_node_path_default().join(repoRoot, unit.dir, 'Kptfile')))) {
            units.add(unit.dir);
            explained.add(file);
        }
    }
    return { units: [...units], explained };
}
/** The changed unit that now holds the inventory `unit` had at `base`: the package moved, it was not deleted. */
async function movedTo(repoRoot, base, unit, candidates, opts) {
    if (candidates.length === 0)
        return undefined;
    const before = (await readInventoryAtCommit(repoRoot, base, unit, opts)).inventory;
    if (!before)
        return undefined;
    for (const candidate of candidates) {
        const now = await readInventoryInfo(candidate, { repoRoot }).catch(() => undefined);
        if (now?.inventory && sameInventory(before, now.inventory))
            return candidate;
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/changes/index.ts
/**
 * Which packages a change touches, from plain git and the package tree: the changed files as data
 * (`ChangeSet`), the deployable units they fall in, inventory info of packages deleted since the base
 * commit (read at that commit), the explicit `packages` list, and the git runner and commit fetching they
 * need. Both front ends use it: the action with files GitHub lists, the CLI's `resolve` with `git diff`.
 */







;// CONCATENATED MODULE: ./src/drift/classify-drift.ts


/** The preview actions that leave an object in the cluster as the package has it. */
const KEPT = new Set(['unchanged', 'configure', 'replace', 'skip']);
/**
 * Drift from a preview and the objects' health, object by object (pure). The preview decides what apply
 * would change (create, configure, prune: the same decision apply makes); health is read only for
 * objects that stay as they are. An object is listed once, with the first of create, prune, configure,
 * status that holds; a configured object that is also unhealthy carries its status too.
 *
 * Not drift: a configure that only moves field ownership (no value differs), a replace forced by
 * `kapp.k14s.io/update-strategy: always-replace` (every apply replaces it), objects skipped or orphaned
 * by choice, inventory entries already gone from the cluster. Preview errors are not classified here:
 * `previewErrors` lists them (the package could not be checked).
 */
function classifyDrift(preview, statuses) {
    const health = new Map(statuses.map((s) => [(0,object_id/* idKey */.T4)(s.id), s]));
    const out = [];
    for (const o of preview.objects) {
        const drift = previewDrift(o);
        const h = KEPT.has(o.action) ? unhealthy(health.get((0,object_id/* idKey */.T4)(o.id))) : undefined;
        if (drift) {
            out.push(h && drift.drift === 'configure' ? { ...drift, status: h.status, message: h.message } : drift);
        }
        else if (h) {
            out.push({ id: o.id, drift: 'status', status: h.status, message: h.message });
        }
    }
    return out;
}
/** What the preview says apply would change, as drift; undefined when apply would leave it alone. */
function previewDrift(o) {
    switch (o.action) {
        case 'create':
            return { id: o.id, drift: 'create' };
        case 'prune':
            return { id: o.id, drift: 'prune', ...(o.reason ? { message: o.reason } : {}) };
        case 'configure':
            // with the hand edits apply reverts, naming who made them
            return o.changes?.length
                ? {
                    id: o.id,
                    drift: 'configure',
                    changes: o.changes,
                    ...(o.ownership?.length ? { message: o.ownership.join('; ') } : {}),
                }
                : undefined;
        case 'replace':
            return o.reason?.includes(`${constants/* Annotations */.rB.KappUpdateStrategy}: always-replace`)
                ? undefined
                : { id: o.id, drift: 'configure', ...(o.reason ? { message: o.reason } : {}) };
        default:
            return undefined;
    }
}
/** A verdict that counts as drift: Failed, or anything but Current once the wait is over (gone: not here). */
function unhealthy(v) {
    if (!v || v.status === 'Current' || v.status === 'NotFound')
        return undefined;
    return v;
}
/** The objects the server refused to dry-run: the package's drift cannot be known (a fatal error). */
function previewErrors(preview) {
    return preview.objects.filter((o) => o.action === 'error');
}

;// CONCATENATED MODULE: ./src/inventory/configmap-inventory.ts


/**
 * The legacy ConfigMap inventory (cli-utils' reference format, kpt before ResourceGroups): a ConfigMap in
 * the inventory namespace labelled with the inventory id, whose `data` keys are object ids. Found by label.
 */
async function readConfigMapInventory(client, inv) {
    const info = await client.resolve('v1', 'ConfigMap');
    if (!info)
        return undefined;
    const list = await client.list(info, inv.namespace, { labelSelector: `${constants/* Labels */.gC.InventoryId}=${inv.id}` });
    if (list.items.length === 0)
        return undefined;
    if (list.items.length > 1)
        throw new Error(`found ${list.items.length} inventory objects with inventory id ${inv.id}`);
    const cm = { ...list.items[0], apiVersion: 'v1', kind: 'ConfigMap' };
    const data = (cm.data ?? {});
    return {
        kind: 'ConfigMap',
        ids: Object.keys(data).map(object_id/* parseInventoryId */.jz),
        resourceVersion: cm.metadata.resourceVersion,
        object: cm,
    };
}
/** Removes the legacy ConfigMap once its ids live in the ResourceGroup (kpt live migrate's last step). */
async function deleteConfigMapInventory(client, cm) {
    await client.delete({
        apiVersion: 'v1',
        group: '',
        kind: 'ConfigMap',
        namespace: cm.metadata.namespace ?? '',
        name: cm.metadata.name,
    }, { uid: cm.metadata.uid });
}

// EXTERNAL MODULE: ./src/kube/api-error.ts
var api_error = __webpack_require__(4662);
;// CONCATENATED MODULE: ./src/inventory/resourcegroup-crd.ts
/**
 * The ResourceGroup CRD exactly as kpt embeds it (kptdev/kpt pkg/live/inventoryrg.go, `v1RGCrd`; text taken
 * from kpt 1.0.0-beta.56), descriptions included. kpt compares the live CRD's spec with this one and tries to
 * "update" it when they differ, which fails for users without CRD permissions: DANGER, do not reformat.
 */
const ResourceGroupCrdYaml = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: resourcegroups.kpt.dev
spec:
  conversion:
    strategy: None
  group: kpt.dev
  names:
    kind: ResourceGroup
    listKind: ResourceGroupList
    plural: resourcegroups
    singular: resourcegroup
  scope: Namespaced
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: ResourceGroup is the Schema for the resourcegroups API
        properties:
          apiVersion:
            description: 'APIVersion defines the versioned schema of this representation
              of an object. Servers should convert recognized schemas to the latest
              internal value, and may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'
            type: string
          kind:
            description: 'Kind is a string value representing the REST resource this
              object represents. Servers may infer this from the endpoint the client
              submits requests to. Cannot be updated. In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'
            type: string
          metadata:
            type: object
          spec:
            description: ResourceGroupSpec defines the desired state of ResourceGroup
            properties:
              descriptor:
                description: Descriptor regroups the information and metadata about
                  a resource group
                properties:
                  description:
                    description: Description is a brief description of a group of
                      resources
                    type: string
                  links:
                    description: Links are a list of descriptive URLs intended to
                      be used to surface additional information
                    items:
                      properties:
                        description:
                          description: Description explains the purpose of the link
                          type: string
                        url:
                          description: Url is the URL of the link
                          type: string
                      required:
                      - description
                      - url
                      type: object
                    type: array
                  revision:
                    description: Revision is an optional revision for a group of resources
                    type: string
                  type:
                    description: Type can contain prefix, such as Application/WordPress
                      or Service/Spanner
                    type: string
                type: object
              resources:
                description: Resources contains a list of resources that form the
                  resource group
                items:
                  description: ObjMetadata organizes and stores the identifying information
                    for an object. This struct (as a string) is stored in a grouping
                    object to keep track of sets of applied objects.
                  properties:
                    group:
                      type: string
                    kind:
                      type: string
                    name:
                      type: string
                    namespace:
                      type: string
                  required:
                  - group
                  - kind
                  - name
                  - namespace
                  type: object
                type: array
            type: object
          status:
            description: ResourceGroupStatus defines the observed state of ResourceGroup
            properties:
              conditions:
                description: Conditions lists the conditions of the current status
                  for the group
                items:
                  properties:
                    lastTransitionTime:
                      description: last time the condition transit from one status
                        to another
                      format: date-time
                      type: string
                    message:
                      description: human-readable message indicating details about
                        last transition
                      type: string
                    reason:
                      description: one-word CamelCase reason for the condition's last
                        transition
                      type: string
                    status:
                      description: Status of the condition
                      type: string
                    type:
                      description: Type of the condition
                      type: string
                  required:
                  - status
                  - type
                  type: object
                type: array
              observedGeneration:
                description: ObservedGeneration is the most recent generation observed.
                  It corresponds to the Object's generation, which is updated on mutation
                  by the API Server. Everytime the controller does a successful reconcile,
                  it sets ObservedGeneration to match ResourceGroup.metadata.generation.
                format: int64
                type: integer
              resourceStatuses:
                description: ResourceStatuses lists the status for each resource in
                  the group
                items:
                  description: ResourceStatus contains the status of a given resource
                    uniquely identified by its group, kind, name and namespace.
                  properties:
                    actuation:
                      description: actuation indicates whether actuation has been
                        performed yet and how it went.
                      type: string
                    conditions:
                      items:
                        properties:
                          lastTransitionTime:
                            description: last time the condition transit from one
                              status to another
                            format: date-time
                            type: string
                          message:
                            description: human-readable message indicating details
                              about last transition
                            type: string
                          reason:
                            description: one-word CamelCase reason for the condition's
                              last transition
                            type: string
                          status:
                            description: Status of the condition
                            type: string
                          type:
                            description: Type of the condition
                            type: string
                        required:
                        - status
                        - type
                        type: object
                      type: array
                    group:
                      type: string
                    kind:
                      type: string
                    name:
                      type: string
                    namespace:
                      type: string
                    reconcile:
                      description: reconcile indicates whether reconciliation has
                        been performed yet and how it went.
                      type: string
                    sourceHash:
                      type: string
                    status:
                      description: Status describes the status of a resource
                      type: string
                    strategy:
                      description: strategy indicates the method of actuation (apply
                        or delete) used or planned to be used.
                      type: string
                  required:
                  - group
                  - kind
                  - name
                  - namespace
                  - status
                  type: object
                type: array
            required:
            - observedGeneration
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
status:
  acceptedNames:
    kind: ""
    plural: ""
  conditions: []
  storedVersions: []
`;

;// CONCATENATED MODULE: ./src/inventory/install-crd.ts




/** kpt's ResourceGroup CRD manifest as an object. */
async function resourceGroupCrd() {
    return (await yaml_module_loadYaml()).parse(ResourceGroupCrdYaml);
}
/**
 * Makes sure `resourcegroups.kpt.dev` is served: installs kpt's CRD when it is missing and waits until
 * it is Established (then refreshes discovery). An existing CRD is left alone, whatever its spec, so users
 * without CRD permissions are never asked to "update" it.
 */
async function ensureResourceGroupCrd(client, options) {
    if (await client.resolve(constants/* ResourceGroupApiVersion */.u_, constants/* ResourceGroupKind */.gM))
        return 'present';
    if (!options.install) {
        throw new Error('type ResourceGroup not found: the ResourceGroup CRD (resourcegroups.kpt.dev) is not installed; ' +
            'run `kpt-live install-resource-group` (or `kpt live install-resource-group`) with cluster-admin rights');
    }
    try {
        await client.create(await resourceGroupCrd());
    }
    catch (err) {
        if (err instanceof api_error/* KubeApiError */.W3 && err.forbidden) {
            throw new Error('the ResourceGroup CRD (resourcegroups.kpt.dev) is not installed, and these credentials may not create ' +
                'customresourcedefinitions (cluster-wide). Ask a cluster admin to run `kpt-live install-resource-group` ' +
                `(or \`kpt live install-resource-group\`) once. Server said: ${err.message}`);
        }
        if (!(err instanceof api_error/* KubeApiError */.W3 && err.code === 409))
            throw err;
    }
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    while (Date.now() < deadline) {
        const crd = await client.get({
            apiVersion: 'apiextensions.k8s.io/v1',
            group: 'apiextensions.k8s.io',
            kind: 'CustomResourceDefinition',
            namespace: '',
            name: 'resourcegroups.kpt.dev',
        });
        const conditions = crd?.status?.conditions ?? [];
        if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) {
            client.resetDiscovery();
            if (await client.resolve(constants/* ResourceGroupApiVersion */.u_, constants/* ResourceGroupKind */.gM))
                return 'installed';
        }
        await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the ResourceGroup CRD was created but did not become Established in time');
}

;// CONCATENATED MODULE: ./src/common/json-equal.ts
/**
 * Deep equality of JSON data (what JSON.parse returns, plus `undefined` values): the same answer as
 * `util.isDeepStrictEqual` for such values (key order ignored, a key set to undefined differs from a
 * missing one), at a fraction of its cost, which matters when every object of a 1000-object package is
 * compared with its dry-run.
 */
function json_equal_jsonEqual(a, b) {
    if (a === b)
        return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
        // NaN is not JSON, but isDeepStrictEqual calls it equal to itself
        return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
    }
    const aArray = Array.isArray(a);
    if (aArray !== Array.isArray(b))
        return false;
    if (aArray) {
        const x = a;
        const y = b;
        if (x.length !== y.length)
            return false;
        for (let i = 0; i < x.length; i++)
            if (!json_equal_jsonEqual(x[i], y[i]))
                return false;
        return true;
    }
    const x = a;
    const y = b;
    let count = 0;
    for (const key in x) {
        if (!Object.hasOwn(x, key))
            continue;
        if (!Object.hasOwn(y, key) || !json_equal_jsonEqual(x[key], y[key]))
            return false;
        count++;
    }
    for (const key in y)
        if (Object.hasOwn(y, key))
            count--;
    return count === 0;
}

;// CONCATENATED MODULE: ./src/inventory/resourcegroup.ts



const rgRef = (inv) => ({
    apiVersion: constants/* ResourceGroupApiVersion */.u_,
    group: 'kpt.dev',
    kind: constants/* ResourceGroupKind */.gM,
    namespace: inv.namespace,
    name: inv.name,
});
/** Reads the ResourceGroup; undefined when it does not exist. Fails when its inventory-id differs. */
async function readResourceGroup(client, inv) {
    const obj = await client.get(rgRef(inv));
    if (!obj)
        return undefined;
    const clusterId = obj.metadata.labels?.[constants/* Labels */.gC.InventoryId];
    if (clusterId !== inv.id) {
        throw new Error(`inventory-id of inventory object in cluster doesn't match provided id "${inv.id}" ` +
            `(ResourceGroup ${inv.namespace}/${inv.name} has "${clusterId ?? ''}"): another package owns this inventory name; ` +
            'give this package its own inventory (kpt-live init --force)');
    }
    return {
        kind: 'ResourceGroup',
        ids: resourceGroupIds(obj),
        resourceVersion: obj.metadata.resourceVersion,
        object: obj,
    };
}
/** The ids in `spec.resources` (kpt trims group and kind). */
function resourceGroupIds(obj) {
    const spec = obj.spec;
    return (spec?.resources ?? []).map((r) => ({
        group: (r.group ?? '').trim(),
        kind: (r.kind ?? '').trim(),
        namespace: r.namespace ?? '',
        name: r.name ?? '',
    }));
}
/**
 * The ResourceGroup as kpt writes it: local labels and annotations (minus config.kubernetes.io/ ones), the
 * inventory-id label, `spec.resources` (absent when empty) and, for the status subresource,
 * `status.resourceStatuses` with kpt's literal `status: Unknown`.
 */
function buildResourceGroup(inv, entries, base) {
    const sorted = [...entries].sort((a, b) => (0,object_id/* compareIds */.q3)(a.id, b.id));
    const annotations = Object.fromEntries(Object.entries(inv.annotations ?? {}).filter(([k]) => !k.startsWith('config.kubernetes.io/') && !k.startsWith('internal.config.kubernetes.io/')));
    const obj = {
        apiVersion: constants/* ResourceGroupApiVersion */.u_,
        kind: constants/* ResourceGroupKind */.gM,
        metadata: {
            ...(base?.metadata ?? {}),
            name: inv.name,
            namespace: inv.namespace,
            labels: { ...(base?.metadata.labels ?? {}), ...(inv.labels ?? {}), [constants/* Labels */.gC.InventoryId]: inv.id },
        },
    };
    if (Object.keys(annotations).length > 0 || base?.metadata.annotations) {
        obj.metadata.annotations = { ...(base?.metadata.annotations ?? {}), ...annotations };
    }
    delete obj.metadata.managedFields;
    const spec = { ...(base?.spec ?? {}) };
    if (sorted.length > 0) {
        spec.resources = sorted.map((e) => ({
            group: e.id.group,
            kind: e.id.kind,
            name: e.id.name,
            namespace: e.id.namespace,
        }));
    }
    else {
        delete spec.resources;
    }
    obj.spec = spec;
    return obj;
}
function statusFor(entries, generation) {
    const sorted = [...entries].sort((a, b) => (0,object_id/* compareIds */.q3)(a.id, b.id));
    const status = { observedGeneration: generation ?? 0 };
    if (sorted.length > 0) {
        status.resourceStatuses = sorted.map((e) => ({
            group: e.id.group,
            kind: e.id.kind,
            namespace: e.id.namespace,
            name: e.id.name,
            status: 'Unknown',
            strategy: e.strategy,
            actuation: e.actuation,
            reconcile: e.reconcile,
        }));
    }
    return status;
}
/**
 * Creates or updates the ResourceGroup with these entries, then writes its status (unless `status: false`). Updates carry the
 * resourceVersion that was read, so a concurrent writer makes this fail (409) instead of losing entries.
 */
async function writeResourceGroup(client, inv, entries, current, options = {}) {
    const desired = buildResourceGroup(inv, entries, current);
    let stored;
    if (!current) {
        delete desired.metadata.resourceVersion;
        stored = await client.create(desired);
    }
    else if (sameContent(desired, current)) {
        stored = current; // a PUT would change nothing (a re-apply of the same objects): save the round trip
    }
    else {
        desired.metadata.resourceVersion = current.metadata.resourceVersion;
        stored = await client.replace(desired);
    }
    if (options.status === false)
        return stored;
    const status = statusFor(entries, stored.metadata.generation);
    if (json_equal_jsonEqual(stored.status, status))
        return stored;
    // the status subresource keeps everything but the status as stored: the body carries only what names the
    // object and its resourceVersion (a concurrent write still fails with 409), half the bytes to send and for
    // the server to decode
    const { name, namespace, resourceVersion, uid } = stored.metadata;
    const metadata = { name, namespace, resourceVersion, ...(uid ? { uid } : {}) };
    return client.replaceStatus({ apiVersion: stored.apiVersion, kind: stored.kind, metadata, status });
}
/** Same labels, annotations and spec: what buildResourceGroup sets. */
function sameContent(desired, current) {
    const pick = (o) => ({
        labels: o.metadata.labels,
        annotations: o.metadata.annotations,
        spec: o.spec,
    });
    return json_equal_jsonEqual(pick(desired), pick(current));
}
/** Deletes the ResourceGroup (destroy, when every object is gone). */
async function deleteResourceGroup(client, inv, uid) {
    await client.delete(rgRef(inv), { uid });
}

;// CONCATENATED MODULE: ./src/plan/errors.ts


const CYCLE_PREFIX = 'cyclic dependency:';
/** kpt's object.InvalidAnnotationError text: `invalid "<annotation>" annotation: <cause>`. */
function invalidAnnotationMessage(annotation, cause) {
    return `invalid "${annotation}" annotation: ${cause}`;
}
/** A depends-on reference to an object that is neither applied nor pruned (kpt cannot wait for it). */
function externalDependencyMessage(from, to) {
    return invalidAnnotationMessage(constants/* Annotations */.rB.DependsOn, `external dependency: ${(0,object_id/* formatRef */.rq)(from)} -> ${(0,object_id/* formatRef */.rq)(to)}`);
}
/** The same reference listed twice in one depends-on annotation. */
function duplicateDependencyMessage(from, to) {
    return invalidAnnotationMessage(constants/* Annotations */.rB.DependsOn, `duplicate dependency: ${(0,object_id/* formatRef */.rq)(from)} -> ${(0,object_id/* formatRef */.rq)(to)}`);
}
/**
 * kpt's CyclicDependencyError text. `edges` must already be the edges left in the cycle, sorted the
 * way cli-utils sorts them (compareIds on from, then to).
 */
function cyclicDependencyMessage(edges) {
    return CYCLE_PREFIX + edges.map((e) => `\n- ${(0,object_id/* formatRef */.rq)(e.from)} -> ${(0,object_id/* formatRef */.rq)(e.to)}`).join('');
}
/** Go's multierror text: one cause as is, several as `N errors:` and an indented `- ` list. */
function multiError(causes) {
    if (causes.length === 1)
        return causes[0];
    const items = causes.map((c) => `- ${c.split('\n').join('\n  ')}\n`);
    return `${causes.length} errors:\n${items.join('')}`;
}
/** Go's %q for the ASCII ids Kubernetes allows. */
const quote = (text) => JSON.stringify(text);
/**
 * The text kpt prints when validation stops a run (its ExitEarly policy): each object's causes
 * wrapped as `invalid object: "<ns_name_group_kind>": <cause>`, a cycle as
 * `invalid objects: ["id1", "id2"] cyclic dependency: ...`, several of them as a multierror.
 * Expects errors in the order buildPlan produces them (each object's causes together, one cycle's
 * vertices together).
 */
function formatPlanErrors(errors) {
    const validationErrors = [];
    let i = 0;
    while (i < errors.length) {
        const first = errors[i];
        let j = i + 1;
        if (first.message.startsWith(CYCLE_PREFIX)) {
            while (j < errors.length && errors[j].message === first.message)
                j++;
            const ids = errors.slice(i, j).map((e) => quote((0,object_id/* formatInventoryId */.RP)(e.id)));
            validationErrors.push(ids.length === 1
                ? `invalid object: ${ids[0]}: ${first.message}`
                : `invalid objects: [${ids.join(', ')}] ${first.message}`);
        }
        else {
            const key = (0,object_id/* idKey */.T4)(first.id);
            while (j < errors.length && (0,object_id/* idKey */.T4)(errors[j].id) === key && !errors[j].message.startsWith(CYCLE_PREFIX))
                j++;
            const causes = errors.slice(i, j).map((e) => e.message);
            validationErrors.push(`invalid object: ${quote((0,object_id/* formatInventoryId */.RP)(first.id))}: ${multiError(causes)}`);
        }
        i = j;
    }
    return validationErrors.length === 0 ? '' : multiError(validationErrors);
}

;// CONCATENATED MODULE: ./src/plan/task-list.ts
/** The one place task names are made. */
const taskName = {
    inventoryAdd: 'inventory-add-0',
    inventorySet: 'inventory-set-0',
    inventoryDelete: 'inventory-delete-or-update-0',
    apply: (i) => `apply-${i}`,
    prune: (j) => `prune-${j}`,
    delete: (j) => `delete-${j}`,
    wait: (i) => `wait-${i}`,
};
function taskList(plan, options) {
    const wave = (action, name, ids) => ({ name, action, ids });
    if (plan.destroy) {
        const deleteWaves = plan.pruneWaves.map((ids, i) => ({
            act: wave('Delete', taskName.delete(i), ids),
            wait: wave('Wait', taskName.wait(i), ids),
        }));
        const last = wave('Inventory', taskName.inventoryDelete, []);
        return { applyWaves: [], deleteWaves, last, tasks: [...flat(deleteWaves), last] };
    }
    const applyWaves = plan.applyWaves.map((ids, i) => ({
        act: wave('Apply', taskName.apply(i), ids),
        wait: wave('Wait', taskName.wait(i), ids),
    }));
    const base = plan.applyWaves.length;
    const deleteWaves = options.prune
        ? plan.pruneWaves.map((ids, j) => ({
            act: wave('Prune', taskName.prune(j), ids),
            wait: wave('Wait', taskName.wait(base + j), ids),
        }))
        : [];
    const first = wave('Inventory', taskName.inventoryAdd, []);
    const last = wave('Inventory', taskName.inventorySet, []);
    return {
        first,
        applyWaves,
        deleteWaves,
        last,
        tasks: [first, ...flat(applyWaves), ...flat(deleteWaves), last],
    };
}
const flat = (waves) => waves.flatMap((w) => [w.act, w.wait]);

// EXTERNAL MODULE: ./src/kube/cluster-client.ts + 2 modules
var cluster_client = __webpack_require__(654);
// EXTERNAL MODULE: ./src/kube/retry.ts
var retry = __webpack_require__(4963);
// EXTERNAL MODULE: ./src/apply/update-strategy.ts
var update_strategy = __webpack_require__(3913);
;// CONCATENATED MODULE: ./src/apply/apply-error.ts




/**
 * The conflicts of a 409 answer to a server-side apply, one per field and manager. The server names the
 * manager in each cause: `conflict with "kubectl" using apps/v1` (an Update), `conflict with "helm"` (an
 * Apply), `conflict with "kube-controller-manager" with subresource "scale" using autoscaling/v1`.
 * Undefined for any other answer.
 */
function fieldConflicts(err) {
    if (!(err instanceof api_error/* KubeApiError */.W3) || !err.conflict || err.causes.length === 0)
        return undefined;
    const out = [];
    for (const c of err.causes) {
        const m = /conflict with "((?:[^"\\]|\\.)*)"(?: with subresource "([^"]*)")?( using )?/.exec(c.message ?? '');
        if (!m)
            continue;
        out.push({
            field: c.field ?? '?',
            manager: m[1],
            ...(m[2] ? { subresource: m[2] } : {}),
            operation: m[3] ? 'Update' : 'Apply',
        });
    }
    return out.length > 0 ? out : undefined;
}
/** A refusal from the API server that is about the object (conflict, invalid, forbidden): not retried. */
class ApplyRejection extends api_error/* KubeApiError */.W3 {
    conflicts;
    constructor(err, message, conflicts) {
        super(err.code, err.reason, message, err.causes, err.retryAfterSeconds);
        this.conflicts = conflicts;
        this.name = 'ApplyRejection';
    }
}
function describeManager(c) {
    const who = `"${c.manager}"`;
    if (c.subresource === 'scale')
        return `${who} through the scale subresource (an autoscaler or \`kubectl scale\` sets it)`;
    if (c.subresource)
        return `${who} through the ${c.subresource} subresource`;
    return c.operation === 'Update' ? `${who} (an update, not a server-side apply)` : who;
}
/** The conflict as a user reads it: each field with the manager that owns it, and the two ways out. */
function conflictMessage(conflicts) {
    const parts = conflicts.map((c) => `${c.field} is owned by field manager ${describeManager(c)}`);
    const n = conflicts.length;
    return (`conflict: ${n} field${n === 1 ? '' : 's'} of the package ${n === 1 ? 'is' : 'are'} owned by another field manager: ` +
        `${parts.join('; ')}. Remove ${n === 1 ? 'that field' : 'those fields'} from the package (the other manager keeps ` +
        `${n === 1 ? 'it' : 'them'}), or take ${n === 1 ? 'it' : 'them'} over with force-conflicts (--force-conflicts)`);
}
/** Conflicts name the fields and the managers that own them, and the way out; immutable fields the fix too. */
function explainApplyError(err) {
    if (err instanceof ApplyRejection)
        return err;
    const conflicts = fieldConflicts(err);
    if (conflicts && err instanceof api_error/* KubeApiError */.W3)
        return new ApplyRejection(err, conflictMessage(conflicts), conflicts);
    const fields = (0,update_strategy/* immutableFields */.KL)(err);
    if (fields && err instanceof api_error/* KubeApiError */.W3) {
        return new ApplyRejection(err, `${err.message}. An immutable field changed: set the annotation kapp.k14s.io/update-strategy: fallback-on-replace ` +
            'to delete and re-create the object');
    }
    return err instanceof Error ? err : new Error(String(err));
}
/**
 * Whether the server never judged the request: what retries could not get through (throttling, 5xx,
 * dropped connections). A 409, 422 or 403 is an answer, and so is a 500 for a manifest that server-side
 * apply cannot type.
 */
function isUnanswered(err) {
    if (err instanceof api_error/* KubeApiError */.W3)
        return (0,retry/* isRetryable */.r3)(err);
    if (err instanceof cluster_client/* UnknownKindError */.r)
        return false;
    return true;
}

;// CONCATENATED MODULE: ./src/apply/client-side-takeover.ts


/** Field managers that client-side `kubectl apply` and `kpt live apply` (client-side) write as. */
const ClientSideManagers = new Set(['kubectl-client-side-apply', 'kubectl', 'kpt']);
/** Union of two FieldsV1 trees. */
function mergeFieldSets(a, b) {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) {
        const prev = out[k];
        out[k] = (0,kube_object/* isRecord */.u4)(prev) && (0,kube_object/* isRecord */.u4)(v) ? mergeFieldSets(prev, v) : v;
    }
    return out;
}
/** Entries of a client-side apply manager that the takeover moves to us (Update, no subresource). */
function takeoverEntries(live) {
    if (live.metadata.annotations?.[constants/* Annotations */.rB.LastApplied] === undefined)
        return [];
    const entries = (live.metadata.managedFields ?? []);
    return entries.filter((e) => e.operation === 'Update' &&
        !e.subresource &&
        e.manager !== undefined &&
        ClientSideManagers.has(e.manager));
}
/**
 * The managers whose fields apply's takeover moves to our field manager before it applies (empty when
 * there is nothing to take over): a conflict with one of them (as an Update, not through a subresource) is
 * one apply will not meet.
 */
function takeoverManagers(live) {
    return new Set(live ? takeoverEntries(live).map((e) => e.manager) : []);
}
/**
 * kubectl's client-side → server-side upgrade (csaupgrade): when an object was last applied client-side
 * (it has the last-applied annotation and fields owned by a client-side apply manager), move those fields to
 * our server-side apply manager, so that a field later removed from the package is removed from the object.
 * Returns the new managedFields, or undefined when there is nothing to take over.
 */
function upgradedManagedFields(live, fieldManager, now = new Date()) {
    const entries = (live.metadata.managedFields ?? []);
    const csa = takeoverEntries(live);
    if (csa.length === 0)
        return undefined;
    const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply' && !e.subresource);
    let fields = ours?.fieldsV1 ?? {};
    for (const e of csa)
        fields = mergeFieldSets(fields, e.fieldsV1 ?? {});
    const merged = {
        manager: fieldManager,
        operation: 'Apply',
        apiVersion: ours?.apiVersion ?? csa[0].apiVersion ?? live.apiVersion,
        time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        fieldsType: 'FieldsV1',
        fieldsV1: fields,
    };
    return [...entries.filter((e) => e !== ours && !csa.includes(e)), merged];
}

;// CONCATENATED MODULE: ./src/apply/no-op-apply.ts


/** The object without what a no-op apply may still report differently (managedFields timestamps, type). */
function comparable(obj) {
    const { apiVersion: _v, kind: _k, ...rest } = obj;
    const managedFields = obj.metadata.managedFields?.map(({ time: _t, ...entry }) => entry);
    return { ...rest, metadata: { ...obj.metadata, managedFields } };
}
/**
 * Whether the server-side dry-run of an apply returned the live object unchanged, so the real apply would
 * be a no-op the server skips (same resourceVersion): the pre-flight's answer saves that request. A dry-run
 * never bumps resourceVersion, so the whole object is compared (managedFields timestamps aside); an object
 * whose client-side field managers we would first take over is never a no-op.
 */
function isNoOpApply(live, dryRun, fieldManager) {
    if (upgradedManagedFields(live, fieldManager))
        return false;
    return json_equal_jsonEqual(comparable(live), comparable(dryRun));
}

;// CONCATENATED MODULE: ./src/apply/decision.ts







/**
 * The decision that needs no answer from the server, or undefined when only the server can tell (then the
 * run asks for a dry-run, or leaves it to the write: `unjudged`). In order: a skip (dependency, inventory
 * policy), an object the server cannot judge yet, an unknown kind, an invalid strategy, an object being
 * deleted, `update-strategy: skip`/`always-replace`, an unchanged object proven from its managed fields.
 */
function decideLocally(f) {
    if (f.skip)
        return { action: 'skip', reason: skipMessage(f.skip), blocked: true, skip: f.skip, validated: false };
    if (f.prerequisite)
        return {
            action: 'create',
            validated: false,
            reason: `not validated: depends on ${(0,object_id/* shortName */.EU)(f.prerequisite)} created by this package`,
        };
    if (!f.info) {
        if (f.crdInPackage)
            return { action: 'create', validated: false, reason: 'not validated: its CRD comes with this package' };
        const unknown = new cluster_client/* UnknownKindError */.r(f.manifest.apiVersion, f.manifest.kind);
        return { action: 'error', validated: false, reason: unknown.message };
    }
    const info = f.info;
    if (f.strategy instanceof Error)
        return { action: 'error', validated: false, reason: f.strategy.message, info };
    const live = f.live;
    if (live?.metadata.deletionTimestamp)
        return { action: 'error', validated: true, reason: beingDeleted(live), info };
    if (live && f.strategy === 'skip') {
        const reason = `${constants/* Annotations */.rB.KappUpdateStrategy}: skip (the live object is left as it is)`;
        return { action: 'skip', reason, object: live, validated: true, info };
    }
    if (live && f.strategy === 'always-replace')
        return {
            action: 'replace',
            validated: false,
            reason: `${constants/* Annotations */.rB.KappUpdateStrategy}: always-replace (deleted and created again)`,
            info,
        };
    if (live && f.provenUnchanged)
        return { action: 'unchanged', object: live, validated: true, info };
    return undefined;
}
/** An object the server was not asked about: it is judged by its own write, as kpt and kubectl do. */
function unjudged(f) {
    return {
        action: f.live ? 'configure' : 'create',
        validated: false,
        reason: 'not dry-run: judged by its own write',
        info: f.info,
        ...(f.takenOver ? { takenOver: f.takenOver } : {}),
    };
}
/**
 * The decision from the server's answer to the dry-run apply: a create, a configure, an unchanged object
 * (the dry-run returned the live object as it is), a replace (an immutable field changed and the strategy
 * allows it), or an error (a conflict, an invalid object, a refusal), explained.
 */
function decideFromAnswer(f, answer) {
    const info = f.info;
    if ('error' in answer) {
        const fields = (0,update_strategy/* immutableFields */.KL)(answer.error);
        if (f.live && fields && f.strategy === 'fallback-on-replace') {
            const s = fields.length === 1 ? '' : 's';
            return {
                action: 'replace',
                validated: true,
                reason: `replace (immutable field${s} ${fields.join(', ') || 'changed'})`,
                info,
            };
        }
        return {
            action: 'error',
            validated: true,
            reason: explainApplyError(answer.error).message,
            unanswered: isUnanswered(answer.error),
            info,
            ...(answer.ownership ? { ownership: answer.ownership } : {}),
        };
    }
    const { object, ownership } = answer;
    if (!f.live)
        return { action: 'create', object, validated: true, info };
    const owned = ownership?.fields.length || ownership?.managedFields ? { ownership } : {};
    if (f.takenOver) {
        const reason = `field ownership moves from ${f.takenOver.join(', ')} (client-side apply) to ${f.fieldManager}`;
        return { action: 'configure', object, validated: true, takenOver: f.takenOver, reason, info, ...owned };
    }
    // a field released to us keeps its value: the write is the ownership's
    if (ownership?.managedFields)
        return {
            action: 'configure',
            object,
            validated: true,
            reason: ownershipReason(ownership),
            info,
            ...owned,
        };
    const same = isNoOpApply(f.live, object, f.fieldManager);
    return { action: same ? 'unchanged' : 'configure', object, validated: true, info, ...owned };
}
function ownershipReason(o) {
    const released = [...new Set(o.fields.filter((d) => d.outcome === 'release').map((d) => d.manager))];
    return released.length > 0
        ? `field ownership moves from ${released.join(', ')} to this package`
        : 'field ownership moves to this package';
}
/**
 * What a write did, from its answer: created, or unchanged when the server kept the resourceVersion (it
 * skips a no-op write), else configured. A takeover is a write of its own, so it never counts as unchanged.
 */
function writeOutcome(live, written, takenOver) {
    if (!live)
        return 'created';
    if (takenOver)
        return 'configured';
    return written.metadata.resourceVersion === live.metadata.resourceVersion ? 'unchanged' : 'configured';
}
function beingDeleted(live) {
    const finalizers = live.metadata.finalizers ?? [];
    const waiting = finalizers.length > 0
        ? ` (waiting on finalizer${finalizers.length === 1 ? '' : 's'} ${finalizers.join(', ')})`
        : '';
    return (`being deleted since ${live.metadata.deletionTimestamp}${waiting}: an apply would not stop the deletion. ` +
        'Let the deletion finish (or remove the finalizers) and apply again');
}

;// CONCATENATED MODULE: ./src/inventory/find-owner.ts

/** A label value the API server accepts in a selector: at most 63 characters of [A-Za-z0-9_.-]. */
const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?)$/;
/**
 * The ResourceGroup whose inventory-id label is `inventoryId` (one cluster-wide LIST), so a message can
 * say which package owns an object. Undefined when there is none, the id cannot be a label value, or the
 * credentials may not list ResourceGroups across namespaces: the id alone is still reported then.
 */
async function findResourceGroupById(client, inventoryId) {
    if (!LABEL_VALUE.test(inventoryId))
        return undefined;
    try {
        const info = await client.resolve(constants/* ResourceGroupApiVersion */.u_, constants/* ResourceGroupKind */.gM);
        if (!info)
            return undefined;
        const list = await client.list(info, undefined, {
            labelSelector: `${constants/* Labels */.gC.InventoryId}=${inventoryId}`,
            metadataOnly: true,
        });
        const rg = list.items[0];
        return rg ? { namespace: rg.metadata.namespace ?? '', name: rg.metadata.name } : undefined;
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/apply/owner-lookup.ts

/**
 * The skip with its owner's ResourceGroup filled in (an inventory-policy skip naming another inventory),
 * looked up once per inventory id and run; other skips come back as they are.
 */
async function withOwner(state, skip) {
    if (skip.type !== 'inventory-policy' || !skip.owner || skip.owner.resourceGroup)
        return skip;
    const id = skip.owner.id;
    let owner = state.owners.get(id);
    if (!owner) {
        owner = findResourceGroupById(state.client, id).then((rg) => (rg ? { id, resourceGroup: rg } : { id }));
        state.owners.set(id, owner);
    }
    return { ...skip, owner: await owner };
}

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
;// CONCATENATED MODULE: ./src/inventory/managed-fields.ts


function managedFieldsOf(obj) {
    const mf = obj.metadata.managedFields;
    return Array.isArray(mf) ? mf : [];
}
/** The entry a server-side apply by `fieldManager` wrote (the fields the package sets), if any. */
function appliedEntry(obj, fieldManager) {
    return managedFieldsOf(obj).find((e) => e.manager === fieldManager && e.operation === 'Apply' && !e.subresource);
}
/** Every path a FieldsV1 tree owns: its leaves and the nodes marked `.` (a list item, as a whole). */
function ownedPaths(tree, prefix = []) {
    if (!tree)
        return [];
    const out = [];
    for (const [key, child] of Object.entries(tree)) {
        if (key === '.') {
            out.push(prefix);
            continue;
        }
        const path = [...prefix, key];
        if ((0,kube_object/* isRecord */.u4)(child) && Object.keys(child).length > 0)
            out.push(...ownedPaths(child, path));
        else
            out.push(path);
    }
    return out;
}
/** A FieldsV1 tree that owns exactly `paths` (a path with owned paths below it is marked `.`). */
function fieldSetOf(paths) {
    const root = {};
    const nodes = [];
    for (const path of paths) {
        let node = root;
        for (const step of path) {
            if (!(0,kube_object/* isRecord */.u4)(node[step]))
                node[step] = {};
            node = node[step];
        }
        if (path.length > 0)
            nodes.push(node);
    }
    for (const node of nodes)
        if (Object.keys(node).some((k) => k !== '.'))
            node['.'] = {};
    return root;
}
/**
 * Union of two FieldsV1 trees. A node one tree owns as a leaf and the other has fields under keeps its own
 * ownership (`.`), as the server writes it.
 */
function managed_fields_mergeFieldSets(a, b) {
    return fieldSetOf([...ownedPaths(a), ...ownedPaths(b)]);
}
const isBelow = (p, q) => q.length > p.length && p.every((x, i) => x === q[i]);
/**
 * `tree` without `paths` (leaves, or nodes marked `.`). A node owned with fields under it (a labels map, a
 * ports list) whose fields all go is dropped too: owning it alone reads as owning the whole node, and a
 * 1.20 API server then gives the manager every field under it again (seen on 1.20.2).
 */
function withoutFieldPaths(tree, paths) {
    const drop = new Set(paths.map((p) => JSON.stringify(p)));
    const all = ownedPaths(tree);
    const kept = all.filter((p) => !drop.has(JSON.stringify(p)));
    const emptied = (p) => all.some((q) => isBelow(p, q)) && !kept.some((q) => isBelow(p, q));
    return fieldSetOf(kept.filter((p) => !emptied(p)));
}
const samePath = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
/** A value as the server prints it in a field path (structured-merge-diff's value.ToString). */
function valueText(v) {
    if (v === null)
        return 'null';
    if (typeof v === 'string')
        return JSON.stringify(v);
    if (Array.isArray(v))
        return `[${v.map(valueText).join(',')}]`;
    if ((0,kube_object/* isRecord */.u4)(v))
        return Object.entries(v)
            .map(([k, x]) => `${k}=${valueText(x)}`)
            .join('');
    return String(v);
}
/**
 * A FieldsV1 path as the server names a field in a conflict: `.spec.template.spec.containers[name="web"].image`,
 * `.spec.ports[port=80,protocol="TCP"]`, `.metadata.finalizers[="x"]`, `[0]`.
 */
function fieldName(path) {
    return path
        .map((step) => {
        const [kind, raw] = [step.slice(0, 2), step.slice(2)];
        if (kind === 'f:')
            return `.${raw}`;
        if (kind === 'i:')
            return `[${raw}]`;
        try {
            const v = JSON.parse(raw);
            if (kind === 'k:' && (0,kube_object/* isRecord */.u4)(v))
                return `[${Object.entries(v)
                    .map(([k, x]) => `${k}=${valueText(x)}`)
                    .join(',')}]`;
            if (kind === 'v:')
                return `[=${valueText(v)}]`;
        }
        catch {
            // not JSON: shown as it is
        }
        return `[${step}]`;
    })
        .join('');
}
/** Whether a list item is the one a `k:` or `v:` step names. */
function matchesStep(item, step) {
    const [kind, raw] = [step.slice(0, 2), step.slice(2)];
    try {
        if (kind === 'k:') {
            const want = JSON.parse(raw);
            return (0,kube_object/* isRecord */.u4)(item) && Object.entries(want).every(([k, v]) => (0,external_node_util_.isDeepStrictEqual)(item[k], v));
        }
        if (kind === 'v:')
            return (0,external_node_util_.isDeepStrictEqual)(item, JSON.parse(raw));
    }
    catch {
        return false;
    }
    return false;
}
/** The value a FieldsV1 path names in an object (undefined when it is not there). */
function valueAtPath(obj, path) {
    let node = obj;
    for (const step of path) {
        if (step.startsWith('f:'))
            node = (0,kube_object/* isRecord */.u4)(node) ? node[step.slice(2)] : undefined;
        else if (!Array.isArray(node))
            return undefined;
        else if (step.startsWith('i:'))
            node = node[Number(step.slice(2))];
        else
            node = node.find((item) => matchesStep(item, step));
        if (node === undefined)
            return undefined;
    }
    return node;
}
/**
 * Sets the value a FieldsV1 path names in a plain object, in place (nothing when its parent is not there;
 * `undefined` removes the field or list item).
 */
function setAtPath(obj, path, value) {
    if (path.length === 0)
        return;
    const parent = valueAtPath(obj, path.slice(0, -1));
    const step = path[path.length - 1];
    if (step.startsWith('f:') && (0,kube_object/* isRecord */.u4)(parent)) {
        if (value === undefined)
            delete parent[step.slice(2)];
        else
            parent[step.slice(2)] = value;
        return;
    }
    if (!Array.isArray(parent))
        return;
    const at = step.startsWith('i:')
        ? Number(step.slice(2))
        : parent.findIndex((item) => matchesStep(item, step));
    if (at < 0 || at >= parent.length)
        return;
    if (value === undefined)
        parent.splice(at, 1);
    else
        parent[at] = value;
}
/**
 * The fields a forced server-side apply took from other managers: what an entry of `live` owned that the same
 * entry (manager, operation, subresource) no longer owns in the forced answer. The server moves a field a forced
 * apply sets to another value away from its old owner and leaves one set to the same value shared, so these are
 * the conflicts an unforced apply would have answered with a 409, one per field and manager, found without it.
 */
function conflictsTaken(live, forced, fieldManager) {
    const key = (e) => `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;
    const after = new Map(managedFieldsOf(forced).map((e) => [key(e), ownedPaths(e.fieldsV1).map((p) => JSON.stringify(p))]));
    const out = [];
    for (const e of managedFieldsOf(live)) {
        if (e.manager === fieldManager || (e.operation !== 'Update' && e.operation !== 'Apply'))
            continue;
        const kept = new Set(after.get(key(e)) ?? []);
        for (const p of ownedPaths(e.fieldsV1)) {
            if (p.length === 0 || kept.has(JSON.stringify(p)))
                continue;
            out.push({
                field: fieldName(p),
                manager: e.manager ?? '',
                operation: e.operation,
                ...(e.subresource ? { subresource: e.subresource } : {}),
            });
        }
    }
    return out;
}

;// CONCATENATED MODULE: ./src/inventory/ownership.ts

function ownershipOf(live, inventoryId) {
    const owner = live.metadata.annotations?.[constants/* Annotations */.rB.OwningInventory];
    if (owner === undefined || owner === '')
        return 'Empty';
    return owner === inventoryId ? 'Match' : 'NoMatch';
}
function ownership_refusal(live, match) {
    const owner = live.metadata.annotations?.[constants/* Annotations */.rB.OwningInventory];
    return owner
        ? { match: match, owner }
        : { match: match };
}
/**
 * May we apply over this live object? (cli-utils InventoryPolicyApplyFilter.)
 * - strict: absent, or owned by us;  adopt: also unowned;  force-adopt: anything.
 * Returns why not, when not.
 */
function applyBlockedBy(live, inventoryId, policy) {
    if (!live || policy === 'force-adopt')
        return undefined;
    const match = ownershipOf(live, inventoryId);
    if (match === 'Match')
        return undefined;
    if (match === 'Empty' && policy === 'adopt')
        return undefined;
    return ownership_refusal(live, match);
}
/** May we delete this live object? strict: only ours; adopt: ours or unowned; force-adopt: anything. */
function pruneBlockedBy(live, inventoryId, policy) {
    if (policy === 'force-adopt')
        return undefined;
    const match = ownershipOf(live, inventoryId);
    if (match === 'Match' || (match === 'Empty' && policy === 'adopt'))
        return undefined;
    return ownership_refusal(live, match);
}
/**
 * The annotation that tells us to forget an object instead of deleting it, if any:
 * `cli-utils.sigs.k8s.io/on-remove: keep`, `client.lifecycle.config.k8s.io/deletion: detach`, or kapp's
 * `kapp.k14s.io/delete-strategy: orphan` (the same effect).
 */
function preventsDeletion(obj) {
    const a = obj.metadata.annotations ?? {};
    if (a[constants/* Annotations */.rB.OnRemove] === 'keep')
        return { key: constants/* Annotations */.rB.OnRemove, value: 'keep' };
    if (a[constants/* Annotations */.rB.LifecycleDeletion] === 'detach')
        return { key: constants/* Annotations */.rB.LifecycleDeletion, value: 'detach' };
    if (a[constants/* Annotations */.rB.KappDeleteStrategy] === 'orphan')
        return { key: constants/* Annotations */.rB.KappDeleteStrategy, value: 'orphan' };
    return undefined;
}

;// CONCATENATED MODULE: ./src/inventory/owner-class.ts



/** The managers that client-side apply (`kubectl apply`, kpt's default `kpt live apply`) writes as. */
const owner_class_ClientSideManagers = new Set(['kubectl-client-side-apply', 'kubectl', 'kpt']);
/** Helm's release annotation: its owner is the release's field manager. */
const HelmReleaseAnnotation = 'meta.helm.sh/release-name';
const HelmReleasePath = ['f:metadata', 'f:annotations', `f:${HelmReleaseAnnotation}`];
/**
 * Whether applying over `live` adopts it: the inventory policy (adopt, force-adopt) takes an object no
 * inventory owns. Taking one from another inventory (force-adopt) is not an adoption here: the other
 * inventory's applier is a co-owner, as before.
 */
function isAdoption(live, inventoryId, policy) {
    return !!live && policy !== 'strict' && ownershipOf(live, inventoryId) === 'Empty';
}
/** The entry that owns Helm's release-name annotation (the release's manager), if any. */
function helmReleaseEntry(live) {
    return managedFieldsOf(live).find((e) => ownedPaths(e.fieldsV1).some((p) => samePath(p, HelmReleasePath)));
}
/** The same managedFields entry: manager, operation and subresource alike. */
const sameRef = (a, b) => a.manager === b.manager && a.operation === b.operation && (a.subresource ?? '') === (b.subresource ?? '');
/**
 * The class of one manager (a managedFields entry of `live`, or a conflict's manager) for this object.
 * `live` supplies what the name alone cannot tell: the last-applied annotation and Helm's release manager.
 */
function classifyManager(ref, live, ctx) {
    const out = (cls, why) => ({
        manager: ref.manager,
        operation: ref.operation,
        ...(ref.subresource ? { subresource: ref.subresource } : {}),
        class: cls,
        why,
    });
    const { manager, operation, subresource } = ref;
    if (subresource)
        return out('co-owner', `${manager} writes it through the ${subresource} subresource`);
    if (manager === ctx.fieldManager)
        return out('ours', 'our field manager');
    if (ctx.settings.keep.includes(manager))
        return out('co-owner', `${manager} is listed in conflicts-keep`);
    if (ctx.settings.take.includes(manager))
        return out('hand-edit', `${manager} is listed in conflicts-take`);
    const lastApplied = live.metadata.annotations?.[constants/* Annotations */.rB.LastApplied] !== undefined;
    if (operation === 'Update' && lastApplied && owner_class_ClientSideManagers.has(manager))
        return out('ours', `${manager} is client-side apply (kubectl apply, kpt live apply)`);
    if (ctx.adopting) {
        const helm = helmReleaseEntry(live);
        if (helm?.manager !== undefined &&
            sameRef(ref, { manager: helm.manager, operation: helm.operation ?? '' })) {
            const release = live.metadata.annotations?.[HelmReleaseAnnotation];
            return out('previous-owner', `the manager of Helm release ${release ?? '?'}`);
        }
        if (operation === 'Apply')
            return out('previous-owner', 'a server-side applier before the adoption');
    }
    if (operation === 'Update' && (manager === 'kubectl' || manager.startsWith('kubectl-')))
        return out('hand-edit', `${manager} is a hand edit (kubectl)`);
    if (operation === 'Update' && manager === 'before-first-apply')
        return out('hand-edit', 'before-first-apply holds what the object had before its first server-side apply');
    return out('co-owner', `${manager} is another field manager (a controller or another applier)`);
}
/** Every managedFields entry of `live` with its class. */
function classifyManagedFields(live, ctx) {
    return managedFieldsOf(live).map((entry) => ({
        ...classifyManager({
            manager: entry.manager ?? '',
            operation: entry.operation ?? '',
            ...(entry.subresource ? { subresource: entry.subresource } : {}),
        }, live, ctx),
        entry,
    }));
}

;// CONCATENATED MODULE: ./src/inventory/ownership-rewrite.ts


const refOf = (e) => ({
    manager: e.manager ?? '',
    operation: e.operation ?? '',
    ...(e.subresource ? { subresource: e.subresource } : {}),
});
const pathKey = (p) => JSON.stringify(p);
/**
 * `live`'s managedFields with `moves` done: the moved fields merged into our Apply entry (made with
 * `apiVersion` when there is none yet), the rest of each entry kept, an entry left empty dropped.
 * Undefined when nothing moves (no move matches an entry that holds one of its paths).
 */
function movedManagedFields(live, moves, fieldManager, apiVersion, now = new Date()) {
    const entries = managedFieldsOf(live);
    const ours = entries.find((e) => e.manager === fieldManager && e.operation === 'Apply' && !e.subresource);
    let fields = ours?.fieldsV1 ?? {};
    let moved = false;
    const kept = [];
    for (const e of entries) {
        if (e === ours)
            continue;
        const move = moves.find((m) => sameRef(m.from, refOf(e)));
        if (!move) {
            kept.push(e);
            continue;
        }
        if (move.paths === 'all') {
            fields = managed_fields_mergeFieldSets(fields, e.fieldsV1 ?? {});
            moved = true;
            continue;
        }
        const want = new Set(move.paths.map(pathKey));
        const taking = ownedPaths(e.fieldsV1).filter((p) => want.has(pathKey(p)));
        if (taking.length === 0) {
            kept.push(e);
            continue;
        }
        moved = true;
        fields = managed_fields_mergeFieldSets(fields, fieldSetOf(taking));
        const rest = withoutFieldPaths(e.fieldsV1 ?? {}, taking);
        if (Object.keys(rest).length > 0)
            kept.push({ ...e, fieldsV1: rest });
    }
    if (!moved)
        return undefined;
    const merged = {
        manager: fieldManager,
        operation: 'Apply',
        apiVersion: ours?.apiVersion ?? apiVersion,
        time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        fieldsType: 'FieldsV1',
        fieldsV1: fields,
    };
    return [...kept, merged];
}
/**
 * The JSON patch that writes `managedFields`, only onto the object as it was read: a write in between (a
 * controller's status, an autoscaler) changes the resourceVersion and the server answers 422 (a failed
 * test); then read again and decide again.
 */
function ownershipPatch(live, managedFields) {
    return [
        { op: 'test', path: '/metadata/resourceVersion', value: live.metadata.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: managedFields },
    ];
}

;// CONCATENATED MODULE: ./src/inventory/field-owners.ts




const refOfConflict = (c) => ({
    manager: c.manager,
    operation: c.operation,
    ...(c.subresource ? { subresource: c.subresource } : {}),
});
function pathOf(live, c) {
    const entry = managedFieldsOf(live).find((e) => sameRef({ manager: e.manager ?? '', operation: e.operation ?? '', subresource: e.subresource }, refOfConflict(c)));
    return ownedPaths(entry?.fieldsV1).find((p) => fieldName(p) === c.field);
}
/** How one conflicting field ends, by the class of its manager and the mode. */
function field_owners_outcomeOf(m, mode) {
    if (m.class === 'previous-owner' && mode !== 'fail')
        return 'release';
    if (mode === 'force')
        return 'take';
    if (mode === 'fail')
        return 'conflict';
    return m.class === 'hand-edit' ? 'take' : 'conflict';
}
function words(d, fieldManager) {
    if (d.outcome === 'take')
        return `reverts an edit by ${d.manager}`;
    if (d.class === 'previous-owner')
        return `released by ${d.manager}, its previous owner (${d.why})`;
    return `${d.manager} set the package's value: ownership moves to ${fieldManager}`;
}
/** Each way out of a conflict with this manager. */
function fixes(m, mode) {
    const out = ['remove the field from the package (the other manager keeps it)'];
    if (m.class === 'hand-edit' && mode === 'fail')
        out.push('set conflicts: take-hand-edits (--conflicts take-hand-edits) to revert the edit');
    else if (!m.subresource)
        out.push(`list "${m.manager}" in conflicts-take (--conflicts-take ${m.manager}), or annotate the object ${conflict_settings/* ConflictsAnnotation */.L1}: take=${m.manager}`);
    out.push(`take every field with conflicts: force (--conflicts force, or the annotation ${conflict_settings/* ConflictsAnnotation */.L1}: force)`);
    return out;
}
function conflictText(d, mode) {
    const via = d.subresource
        ? ` through the ${d.subresource} subresource${d.subresource === 'scale' ? ' (an autoscaler or `kubectl scale`)' : ''}`
        : d.operation === 'Update'
            ? ' (an update)'
            : ' (a server-side apply)';
    return `${d.field} is owned by field manager "${d.manager}"${via}: ${fixes(d, mode).join('; or ')}`;
}
function errorText(blocking, mode) {
    const n = blocking.length;
    return `conflict: ${n} field${n === 1 ? '' : 's'} of the package ${n === 1 ? 'is' : 'are'} owned by another field manager: ${blocking.map((d) => conflictText(d, mode)).join('. ')}`;
}
/** The per-field decision for one object (see OwnershipDecision for how to carry it out). */
function decideOwnership(input) {
    const { live, answer, context: ctx } = input;
    const { mode } = ctx.settings;
    const fields = [];
    for (const c of input.conflicts) {
        const m = classifyManager(refOfConflict(c), live, ctx);
        // a client-side apply manager's fields all move to us before the apply (`absorbed`): no conflict then
        if (m.class === 'ours')
            continue;
        const path = pathOf(live, c);
        const base = {
            ...m,
            field: c.field,
            ...(path ? { path, live: valueAtPath(live, path) } : {}),
            ...(path && answer ? { desired: valueAtPath(answer, path) } : {}),
            outcome: field_owners_outcomeOf(m, mode),
            sameValue: false,
        };
        fields.push({ ...base, message: base.outcome === 'conflict' ? '' : words(base, ctx.fieldManager) });
    }
    for (const d of fields)
        if (d.outcome === 'conflict')
            d.message = conflictText(d, mode);
    const classified = classifyManagedFields(live, ctx);
    const absorbed = classified.filter((m) => m.class === 'ours' && m.manager !== ctx.fieldManager);
    const moves = absorbed.map((m) => ({ from: m, paths: 'all' }));
    // fields the package sets that a hand edit or the previous owner holds with the same value: released
    const ours = answer ? appliedEntry(answer, ctx.fieldManager) : undefined;
    const packageSets = new Set(ownedPaths(ours?.fieldsV1).map((p) => JSON.stringify(p)));
    for (const m of mode === 'fail' ? [] : classified) {
        if (m.class !== 'hand-edit' && m.class !== 'previous-owner')
            continue;
        const shared = ownedPaths(m.entry.fieldsV1).filter((p) => packageSets.has(JSON.stringify(p)));
        const released = shared.filter((p) => !fields.some((d) => sameRef(d, m) && d.field === fieldName(p)));
        if (released.length === 0)
            continue;
        moves.push({ from: m, paths: released });
        // no conflict on them: the server found the package's value there (a list item or a map as a whole
        // is owned for being there, whatever its fields hold)
        const { entry: _entry, ...who } = m;
        for (const p of released) {
            const base = { ...who, field: fieldName(p), path: p, live: valueAtPath(live, p) };
            const d = { ...base, desired: valueAtPath(answer, p), outcome: 'release', sameValue: true };
            fields.push({ ...d, message: words(d, ctx.fieldManager) });
        }
    }
    const blocking = fields.filter((d) => d.outcome === 'conflict');
    const managedFields = blocking.length === 0
        ? movedManagedFields(live, moves, ctx.fieldManager, answer?.apiVersion ?? live.apiVersion, input.now)
        : undefined;
    return {
        fields,
        blocking,
        absorbed: absorbed.map(({ entry: _entry, ...m }) => m),
        force: mode === 'force' || (input.conflicts.length > 0 && blocking.length === 0),
        ...(managedFields ? { managedFields } : {}),
        ...(blocking.length > 0 ? { error: errorText(blocking, mode) } : {}),
    };
}
/**
 * The fields the package sets that a hand edit changed: drift, with the manager who made it (whatever the
 * mode: with `fail` the next apply stops at them, but they differ from the package all the same). A
 * co-owner's field, or one the package does not set, is not drift.
 */
function handEditDrift(decision) {
    return decision.fields.filter((d) => d.class === 'hand-edit' && !d.sameValue);
}
/**
 * Whether a field our last apply set is also held by a hand edit or a previous owner (with the same value:
 * another value would have taken it from us): such a field is released by the next apply that asks the
 * server, so that a later removal from the package removes it; an object proven unchanged from its managed
 * fields alone would never be asked.
 */
function sharesWithHandEdits(live, context) {
    const ours = appliedEntry(live, context.fieldManager);
    if (!ours)
        return false;
    const set = new Set(ownedPaths(ours.fieldsV1).map((p) => JSON.stringify(p)));
    return classifyManagedFields(live, context).some((m) => (m.class === 'hand-edit' || m.class === 'previous-owner') &&
        ownedPaths(m.entry.fieldsV1).some((p) => set.has(JSON.stringify(p))));
}

;// CONCATENATED MODULE: ./src/plan/dependency-graph.ts




const CRD_GROUP = 'apiextensions.k8s.io';
const CRD_KIND = 'CustomResourceDefinition';
const edgeKey = (from, to) => `${(0,object_id/* idKey */.T4)(from)}\t${(0,object_id/* idKey */.T4)(to)}`;
const dependency_graph_groupKindKey = (group, kind) => `${group}/${kind}`;
/** The GroupKind a CRD defines (spec.group + spec.names.kind), as cli-utils' GetCRDGroupKind reads it. */
function crdGroupKind(obj) {
    const group = (0,kube_object/* getPath */.Yn)(obj, ['spec', 'group']);
    const kind = (0,kube_object/* getPath */.Yn)(obj, ['spec', 'names', 'kind']);
    return typeof group === 'string' && typeof kind === 'string' ? dependency_graph_groupKindKey(group, kind) : undefined;
}
/**
 * Parses one object's depends-on annotation. kpt rejects an empty value (its parser sees one empty
 * reference), where the shared parseDependsOn returns no references, so that case is handled here.
 */
function readDependsOn(value) {
    try {
        if (value.trim() === '')
            (0,object_id/* parseRef */.rd)(value, 0);
        return (0,object_id/* parseDependsOn */.ql)(value);
    }
    catch (err) {
        const message = err.message;
        return message.startsWith('invalid "')
            ? message
            : invalidAnnotationMessage(constants/* Annotations */.rB.DependsOn, message);
    }
}
/** The CRDs (by the GroupKind they define) and Namespaces among the objects: implicit edges point at them. */
function implicitTargets(objs, ids) {
    const crds = new Map();
    const namespaces = new Map();
    objs.forEach((obj, i) => {
        const id = ids[i];
        if (id.group === CRD_GROUP && id.kind === CRD_KIND) {
            const gk = crdGroupKind(obj);
            if (gk !== undefined)
                crds.set(gk, id);
        }
        if (id.group === '' && id.kind === 'Namespace')
            namespaces.set(id.name, id);
    });
    return { crds, namespaces };
}
/**
 * What `id` implicitly depends on among the objects: its CRD and its Namespace. Implicit self-edges (a CRD
 * defining CRDs, a Namespace carrying a namespace) would only make a cycle out of an object the server rejects
 * anyway; they are left out.
 */
function implicitDependencies(id, targets) {
    const out = [];
    const crd = targets.crds.get(dependency_graph_groupKindKey(id.group, id.kind));
    if (crd && (0,object_id/* idKey */.T4)(crd) !== (0,object_id/* idKey */.T4)(id))
        out.push(crd);
    const ns = id.namespace ? targets.namespaces.get(id.namespace) : undefined;
    if (ns && (0,object_id/* idKey */.T4)(ns) !== (0,object_id/* idKey */.T4)(id))
        out.push(ns);
    return out;
}
/**
 * The objects buildDependencyGraph gives no edge (the first wave, when nothing is in a cycle), without
 * building the graph: no depends-on annotation, and neither their CRD nor their Namespace among the objects.
 */
function withoutDependencies(objects) {
    const ids = objects.map(idOf);
    const targets = implicitTargets(objects, ids);
    return ids.filter((id, i) => {
        const annotations = objects[i].metadata.annotations;
        if (annotations && Object.hasOwn(annotations, Annotations.DependsOn))
            return false;
        return implicitDependencies(id, targets).length === 0;
    });
}
/**
 * Builds cli-utils' dependency graph over the objects (apply ∪ prune): implicit edges from custom
 * resources to their CRD and from namespaced objects to their Namespace when those are in the set,
 * and explicit `config.kubernetes.io/depends-on` edges, which must point inside the set. Duplicate
 * edges collapse into one (explicit wins the `implicit` flag); bad annotations become errors, never
 * exceptions, so the caller can report all of them at once. O(objects + references).
 */
function buildDependencyGraph(objects) {
    const ids = [];
    const objs = [];
    const known = new Set();
    for (const obj of objects) {
        const id = (0,object_id/* idOf */.TH)(obj);
        const key = (0,object_id/* idKey */.T4)(id);
        if (known.has(key))
            continue;
        known.add(key);
        ids.push(id);
        objs.push(obj);
    }
    const targets = implicitTargets(objs, ids);
    const edges = new Map();
    const addEdge = (from, to, implicit) => {
        const key = edgeKey(from, to);
        const existing = edges.get(key);
        if (existing)
            existing.implicit &&= implicit;
        else
            edges.set(key, { from, to, implicit });
    };
    for (const id of ids)
        for (const to of implicitDependencies(id, targets))
            addEdge(id, to, true);
    const errors = [];
    objs.forEach((obj, i) => {
        const annotations = obj.metadata.annotations;
        if (!annotations || !Object.hasOwn(annotations, constants/* Annotations */.rB.DependsOn))
            return;
        const from = ids[i];
        const deps = readDependsOn(annotations[constants/* Annotations */.rB.DependsOn]);
        if (typeof deps === 'string') {
            errors.push({ id: from, message: deps });
            return;
        }
        const seen = new Set();
        for (const to of deps) {
            const key = (0,object_id/* idKey */.T4)(to);
            if (seen.has(key)) {
                errors.push({ id: from, message: duplicateDependencyMessage(from, to) });
                continue;
            }
            seen.add(key);
            if (!known.has(key)) {
                errors.push({ id: from, message: externalDependencyMessage(from, to) });
                continue;
            }
            addEdge(from, to, false);
        }
    });
    const sorted = [...edges.values()].sort((a, b) => (0,object_id/* compareIds */.q3)(a.from, b.from) || (0,object_id/* compareIds */.q3)(a.to, b.to));
    return { ids, edges: sorted, errors };
}

;// CONCATENATED MODULE: ./src/plan/plan.ts




function uniqueById(objects, exclude) {
    const seen = new Set(exclude);
    return objects.filter((obj) => {
        const key = (0,object_id/* idKey */.T4)((0,object_id/* idOf */.TH)(obj));
        if (seen.has(key))
            return false;
        seen.add(key);
        return true;
    });
}
/**
 * Plans a run the way cli-utils' solver does: one dependency graph over apply ∪ prune objects,
 * layered into waves; apply waves are the layers restricted to package objects, prune waves the
 * layers restricted to prune objects, reversed. Objects with invalid dependencies or in a cycle get
 * an error and no wave, as kpt filters invalid objects. An object both in the package and in `prune`
 * is applied, never pruned. O(V + E) apart from sorting each wave.
 */
function buildPlan(input) {
    const destroy = input.destroy === true;
    const applyObjs = destroy ? [] : uniqueById(input.apply, new Set());
    const applyKeys = new Set(applyObjs.map((obj) => (0,object_id/* idKey */.T4)((0,object_id/* idOf */.TH)(obj))));
    const pruneObjs = destroy
        ? uniqueById([...input.apply, ...input.prune], new Set())
        : uniqueById(input.prune, applyKeys);
    const graph = buildDependencyGraph([...applyObjs, ...pruneObjs]);
    const { layers, cycle } = layerGraph(graph.ids, graph.edges);
    const errors = [...graph.errors];
    if (cycle) {
        const message = cyclicDependencyMessage(cycle.edges);
        for (const id of cycle.ids)
            errors.push({ id, message });
    }
    const invalid = new Set(errors.map((e) => (0,object_id/* idKey */.T4)(e.id)));
    const valid = (objs) => new Set(objs.map((obj) => (0,object_id/* idKey */.T4)((0,object_id/* idOf */.TH)(obj))).filter((key) => !invalid.has(key)));
    return {
        destroy,
        applyWaves: selectWaves(layers, valid(applyObjs)),
        pruneWaves: reverseWaves(selectWaves(layers, valid(pruneObjs))),
        edges: graph.edges,
        errors,
    };
}
const indexes = new WeakMap();
function indexPlan(plan) {
    const cached = indexes.get(plan);
    if (cached)
        return cached;
    const index = { dependencies: new Map(), dependents: new Map(), waves: new Map() };
    const append = (map, key, id) => {
        const list = map.get(key);
        if (list)
            list.push(id);
        else
            map.set(key, [id]);
    };
    for (const { from, to } of plan.edges) {
        append(index.dependencies, (0,object_id/* idKey */.T4)(from), to);
        append(index.dependents, (0,object_id/* idKey */.T4)(to), from);
    }
    for (const waves of [plan.applyWaves, plan.pruneWaves]) {
        waves.forEach((wave, i) => {
            for (const id of wave)
                index.waves.set((0,object_id/* idKey */.T4)(id), i);
        });
    }
    indexes.set(plan, index);
    return index;
}
/** What `id` directly depends on (explicit and implicit): the dependency filter checks these before applying it. */
function dependenciesOf(plan, id) {
    return [...(indexPlan(plan).dependencies.get((0,object_id/* idKey */.T4)(id)) ?? [])];
}
/**
 * What directly depends on `id`: an object still depended on by the package is never pruned, and a
 * delete waits for its dependents to be gone.
 */
function dependentsOf(plan, id) {
    return [...(indexPlan(plan).dependents.get((0,object_id/* idKey */.T4)(id)) ?? [])];
}
/**
 * The 0-based wave of `id`: in applyWaves for package objects, in pruneWaves for pruned (or destroyed)
 * objects; undefined when the object has no wave (not planned, or invalid).
 */
function waveIndexOf(plan, id) {
    return indexPlan(plan).waves.get(idKey(id));
}

;// CONCATENATED MODULE: ./src/apply/simulate-takeover.ts


/** Every path a FieldsV1 tree owns: its leaves and the nodes marked `.` (a list item, as a whole). */
function simulate_takeover_ownedPaths(tree, prefix = []) {
    if (!tree)
        return [];
    const out = [];
    for (const [key, child] of Object.entries(tree)) {
        if (key === '.') {
            out.push(prefix);
            continue;
        }
        const path = [...prefix, key];
        if ((0,kube_object/* isRecord */.u4)(child) && Object.keys(child).length > 0)
            out.push(...simulate_takeover_ownedPaths(child, path));
        else
            out.push(path);
    }
    return out;
}
const isPrefix = (p, q) => p.length <= q.length && p.every((x, i) => x === q[i]);
/**
 * The fields the takeover gives us that the apply answered in `dryRun` leaves to the client-side managers
 * only: after a real takeover nobody would own them, so the server removes them. `status` is never ours.
 */
function takeoverRemovals(dryRun, absorbed) {
    const entries = (dryRun.metadata.managedFields ?? []);
    const isAbsorbed = (e) => e.operation === 'Update' && !e.subresource && absorbed.has(e.manager ?? '');
    const candidates = entries.filter(isAbsorbed).flatMap((e) => simulate_takeover_ownedPaths(e.fieldsV1));
    // ours (the fields this apply sets) and every other manager's
    const kept = entries.filter((e) => !isAbsorbed(e)).flatMap((e) => simulate_takeover_ownedPaths(e.fieldsV1));
    const removals = [];
    for (const p of candidates) {
        if (p[0] === 'f:status')
            continue;
        // kept when someone else owns it, or something inside it
        if (kept.some((k) => isPrefix(p, k)))
            continue;
        if (removals.some((r) => isPrefix(r, p)))
            continue;
        removals.push(p);
    }
    return removals;
}
function matches(item, key) {
    const [kind, raw] = [key.slice(0, 2), key.slice(2)];
    try {
        if (kind === 'k:') {
            const want = JSON.parse(raw);
            return (0,kube_object/* isRecord */.u4)(item) && Object.entries(want).every(([k, v]) => (0,external_node_util_.isDeepStrictEqual)(item[k], v));
        }
        if (kind === 'v:')
            return (0,external_node_util_.isDeepStrictEqual)(item, JSON.parse(raw));
    }
    catch {
        return false;
    }
    return false;
}
/** Removes one FieldsV1 path from a plain object (nothing when the path is not there). */
function removePath(obj, path) {
    let node = obj;
    for (const [i, step] of path.entries()) {
        const last = i === path.length - 1;
        if (step.startsWith('f:') && (0,kube_object/* isRecord */.u4)(node)) {
            const name = step.slice(2);
            if (last)
                delete node[name];
            else
                node = node[name];
        }
        else if (Array.isArray(node)) {
            const at = step.startsWith('i:')
                ? Number(step.slice(2))
                : node.findIndex((item) => matches(item, step));
            if (at < 0 || at >= node.length)
                return;
            if (last)
                node.splice(at, 1);
            else
                node = node[at];
        }
        else {
            return;
        }
        if (node === undefined)
            return;
    }
}
/** `dryRun` without the fields the takeover removes. */
function withoutPaths(dryRun, paths) {
    const copy = (0,kube_object/* cloneJson */.Y7)(dryRun);
    for (const p of paths)
        removePath(copy, p);
    return copy;
}
const pointer = (...parts) => parts.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
/**
 * A JSON patch that turns `live` into `target` for everything a user owns (top-level fields but
 * `metadata` and `status`; labels and annotations): sent as a dry-run, the server defaults and validates
 * the result as it would after the apply.
 */
function patchTowards(live, target) {
    const ops = [];
    const skip = new Set(['apiVersion', 'kind', 'metadata', 'status']);
    const keys = new Set([...Object.keys(live), ...Object.keys(target)].filter((k) => !skip.has(k)));
    const put = (path, had, value) => {
        if (value !== undefined)
            ops.push({ op: 'add', path, value });
        else if (had)
            ops.push({ op: 'remove', path });
    };
    for (const k of keys)
        put(pointer(k), k in live, target[k]);
    for (const k of ['labels', 'annotations']) {
        put(pointer('metadata', k), live.metadata[k] !== undefined, target.metadata[k]);
    }
    return ops;
}

;// CONCATENATED MODULE: ./src/apply/ask-server.ts









/** Who the other field managers of `live` are to this package object (field-owners.ts's rule). */
function ownerContext(state, manifest, live) {
    return {
        fieldManager: state.options.fieldManager,
        adopting: isAdoption(live, state.inventory.id, state.options.inventoryPolicy),
        // force-conflicts is `conflicts: force`; an object's annotation may still say otherwise
        settings: (0,conflict_settings/* objectConflictSettings */.tc)(state.options.forceConflicts ? { ...state.options.conflicts, mode: 'force' } : state.options.conflicts, manifest.metadata.annotations),
    };
}
/**
 * The server's answer to the dry-run of the apply, judged by the ownership rule (field-owners.ts): the fields a
 * forced dry-run takes from other managers are those they hold with another value; one a co-owner holds is a
 * conflict, and the object fails saying whose and the way out; the others are taken or released, and the
 * forced answer is the object as apply leaves it. A dry-run cannot carry apply's
 * managedFields rewrite: the fields that rewrite hands to us from client-side apply and that nobody keeps
 * are removed from the answer (simulate-takeover.ts).
 */
async function askServer(state, manifest, live) {
    try {
        if (!live)
            return { object: await dryRunApply(state, manifest, state.options.forceConflicts) };
        const context = ownerContext(state, manifest, live);
        // one forced dry-run: what it took from whom is what an unforced one would have refused (conflictsTaken)
        let object = await dryRunApply(state, manifest, true);
        const conflicts = conflictsTaken(live, object, state.options.fieldManager);
        const ownership = decideOwnership({ live, conflicts, answer: object, context });
        const keep = state.ask.kind === 'all' && !!state.ask.keepCoOwners;
        if (ownership.error && !keep) {
            const causes = conflicts.map((c) => ({
                type: 'FieldManagerConflict',
                field: c.field,
                message: c.manager,
            }));
            const refusal = new api_error/* KubeApiError */.W3(409, 'Conflict', ownership.error, causes);
            return { error: new ApplyRejection(refusal, ownership.error, conflicts), ownership };
        }
        if (keep)
            object = withCoOwnersKept(object, live, ownership);
        const absorbed = new Set(ownership.absorbed.map((m) => m.manager));
        if (absorbed.size > 0)
            object = await afterTakeover(state, live, object, absorbed);
        return { object, ownership };
    }
    catch (error) {
        return { error };
    }
}
/** The forced answer with every field a co-owner holds put back to its live value (drift: not ours to change). */
function withCoOwnersKept(answer, live, o) {
    // a hand edit apply would stop at (`conflicts: fail`) still differs from the package: drift shows it
    const kept = o.blocking.filter((d) => d.path && d.class !== 'hand-edit');
    if (kept.length === 0)
        return answer;
    const copy = (0,kube_object/* cloneJson */.Y7)(answer);
    for (const d of kept)
        setAtPath(copy, d.path, (0,kube_object/* cloneJson */.Y7)(valueAtPath(live, d.path)));
    return copy;
}
function dryRunApply(state, manifest, force) {
    return state.client.apply(manifest, { fieldManager: state.options.fieldManager, force, dryRun: true });
}
/** The dry-run answer as apply will leave the object: taken-over fields it no longer sets removed, then defaulted. */
async function afterTakeover(state, live, dryRun, absorbed) {
    const removals = takeoverRemovals(dryRun, absorbed);
    if (removals.length === 0)
        return dryRun;
    const ops = patchTowards(live, withoutPaths(dryRun, removals));
    return state.client.jsonPatch({ ...(0,object_id/* idOf */.TH)(live), apiVersion: dryRun.apiVersion }, ops, {
        dryRun: true,
        fieldManager: state.options.fieldManager,
    });
}

;// CONCATENATED MODULE: ./src/apply/proven-no-op.ts


/**
 * Whether applying `manifest` is certain to change nothing, from the live object alone: our field manager's
 * one Apply entry (FieldsV1, same apiVersion, no subresource) owns exactly the fields the manifest sets, and
 * the live object holds the manifest's value in each of them. Then a server-side apply would own the same
 * fields with the same values: a no-op, which the pre-flight need not ask the server about. Anything this
 * cannot read for certain (null values, empty maps, list items it cannot match one to one, a granular
 * list or map the server may have reordered or defaulted, values the server normalised) answers false,
 * and the dry-run decides as before: a false "changed" costs one request, a false "unchanged" would lose
 * a change, so every doubt goes to the server.
 *
 * What the entry proves: another writer that changed or removed one of our fields took it from our entry
 * (an update takes the fields it changes; an apply must force them), so an entry that still lists the
 * field, with the manifest's value live, was not changed under us.
 */
function provenNoOp(live, manifest, fieldManager) {
    const ours = (live.metadata.managedFields ?? []).filter((e) => e.manager === fieldManager);
    if (ours.length !== 1)
        return false;
    const entry = ours[0];
    if (entry.operation !== 'Apply' ||
        entry.subresource ||
        entry.fieldsType !== 'FieldsV1' ||
        entry.apiVersion !== manifest.apiVersion ||
        !(0,kube_object/* isRecord */.u4)(entry.fieldsV1) ||
        live.metadata.deletionTimestamp)
        return false;
    return sameMap(entry.fieldsV1, ownedPart(manifest), ownedPart(live));
}
/** What field sets track: not apiVersion and kind (the entry's own), nor metadata.name and namespace. */
function ownedPart(obj) {
    const { apiVersion: _v, kind: _k, metadata, ...rest } = obj;
    const { name: _n, namespace: _ns, ...meta } = metadata;
    return Object.keys(meta).length > 0 ? { ...rest, metadata: meta } : rest;
}
/** `set` owns exactly the keys of map `m`, and `live` holds each of their values. */
function sameMap(set, m, live) {
    if (!(0,kube_object/* isRecord */.u4)(live))
        return false;
    let owned = 0;
    for (const k in set) {
        if (k === '.')
            continue;
        if (!k.startsWith('f:') || !Object.hasOwn(m, k.slice(2)))
            return false;
        owned++;
    }
    if (Object.keys(m).length !== owned)
        return false;
    for (const key in m) {
        const child = set[`f:${key}`];
        if (!(0,kube_object/* isRecord */.u4)(child) || !sameField(child, m[key], live[key]))
            return false;
    }
    return true;
}
function sameField(set, value, live) {
    if (value === null || value === undefined)
        return false;
    const leaf = Object.keys(set).length === 0;
    if (typeof value !== 'object')
        return leaf && value === live;
    // an atomic map or list (a selector, a Role's rules) is owned whole: it must be equal whole
    if (leaf)
        return json_equal_jsonEqual(value, live);
    if (Array.isArray(value))
        return sameList(set, value, live);
    if (Object.keys(value).length === 0)
        return false;
    return sameMap(set, value, live);
}
/** A list with merge keys (`k:{...}`) or a set (`v:...`): item for item, in the live list's order. */
function sameList(set, items, live) {
    if (!Array.isArray(live) || items.length === 0)
        return false;
    const keys = Object.keys(set).filter((k) => k !== '.');
    if (keys.length !== items.length)
        return false;
    if (keys.every((k) => k.startsWith('v:')))
        return sameSet(keys, items, live);
    if (!keys.every((k) => k.startsWith('k:')))
        return false;
    const parsed = keys.map((k) => ({ k, fields: parseKey(k) }));
    if (parsed.some((p) => !p.fields))
        return false;
    const used = new Set();
    let lastIndex = -1;
    for (const item of items) {
        if (!(0,kube_object/* isRecord */.u4)(item))
            return false;
        // the merge key as the item gives it; a key field it leaves out (a port's protocol) is the default's
        const candidates = parsed.filter((p) => !used.has(p.k) &&
            Object.entries(p.fields).every(([f, v]) => !Object.hasOwn(item, f) || json_equal_jsonEqual(item[f], v)));
        if (candidates.length !== 1)
            return false;
        const { k, fields } = candidates[0];
        used.add(k);
        const matches = live.flatMap((x, i) => (0,kube_object/* isRecord */.u4)(x) && Object.entries(fields).every(([f, v]) => json_equal_jsonEqual(x[f], v)) ? [i] : []);
        if (matches.length !== 1 || matches[0] <= lastIndex)
            return false;
        lastIndex = matches[0];
        const child = set[k];
        if (!(0,kube_object/* isRecord */.u4)(child) || !sameMap(child, item, live[lastIndex]))
            return false;
    }
    return true;
}
function sameSet(keys, items, live) {
    const owned = new Set(keys);
    let lastIndex = -1;
    for (const item of items) {
        if (item === null || typeof item === 'object')
            return false;
        if (!owned.delete(`v:${JSON.stringify(item)}`))
            return false;
        const i = live.indexOf(item);
        if (i <= lastIndex)
            return false;
        lastIndex = i;
    }
    return true;
}
function parseKey(k) {
    try {
        const fields = JSON.parse(k.slice(2));
        return (0,kube_object/* isRecord */.u4)(fields) && Object.keys(fields).length > 0 ? fields : undefined;
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/apply/decide-object.ts











/**
 * Why an object may not be applied now (kpt's DependencyFilter and InventoryPolicyApplyFilter), if so,
 * as data (the owner's ResourceGroup is not looked up yet: `withOwner`).
 */
function applySkip(state, id) {
    for (const dep of dependenciesOf(state.plan, id)) {
        const depKey = (0,object_id/* idKey */.T4)(dep);
        if (!state.manifests.has(depKey))
            return { type: 'dependency', dependency: dep, cause: 'scheduled for delete' };
        const why = state.blocked.get(depKey);
        if (why)
            return { type: 'dependency', dependency: dep, cause: why };
    }
    const live = state.live.get((0,object_id/* idKey */.T4)(id));
    const refused = applyBlockedBy(live ?? undefined, state.inventory.id, state.options.inventoryPolicy);
    if (!refused)
        return undefined;
    return {
        type: 'inventory-policy',
        strategy: 'Apply',
        match: refused.match,
        policy: state.options.inventoryPolicy,
        ...(refused.owner ? { owner: { id: refused.owner } } : {}),
    };
}
/**
 * The Namespace or CRD that this package creates and that does not exist yet, which a server-side dry-run
 * of `id` would trip over; undefined when the dry-run can be trusted now.
 */
function missingPrerequisite(state, id) {
    for (const dep of dependenciesOf(state.plan, id)) {
        const isNamespace = dep.group === '' && dep.kind === 'Namespace';
        const isCrd = dep.group === 'apiextensions.k8s.io' && dep.kind === 'CustomResourceDefinition';
        if ((isNamespace || isCrd) && state.manifests.has((0,object_id/* idKey */.T4)(dep)) && !state.live.get((0,object_id/* idKey */.T4)(dep)))
            return dep;
    }
    return undefined;
}
/**
 * The decision for one package object, as a dry run takes it (the preview, the pre-flight, drift): the facts
 * about it (decideLocally), then, when only the server can tell and the run's ask policy says so, the
 * server's answer to a dry-run apply (decideFromAnswer). Sends only dry-runs; never throws.
 */
async function decideObject(state, id, 
/** The object as read again (a write found it changed since the run's read); the server is always asked. */
fresh) {
    try {
        const facts = await factsOf(state, id, fresh);
        const local = decideLocally(facts);
        if (local)
            return local;
        if (fresh === undefined && !asks(state, id))
            return unjudged(facts);
        return decideFromAnswer(facts, await askServer(state, facts.manifest, facts.live));
    }
    catch (err) {
        // discovery could not be read: the server never judged the object
        return {
            action: 'error',
            validated: false,
            reason: explainApplyError(err).message,
            unanswered: isUnanswered(err),
        };
    }
}
async function factsOf(state, id, fresh) {
    const key = (0,object_id/* idKey */.T4)(id);
    const manifest = state.manifests.get(key);
    const live = (fresh === undefined ? state.live.get(key) : fresh) ?? undefined;
    const { fieldManager } = state.options;
    const base = { id, manifest, live, fieldManager, crdInPackage: false, provenUnchanged: false };
    const skip = applySkip(state, id);
    if (skip)
        return { ...base, skip, strategy: '' };
    const prerequisite = missingPrerequisite(state, id);
    if (prerequisite)
        return { ...base, prerequisite, strategy: '' };
    let strategy;
    try {
        strategy = (0,update_strategy/* updateStrategyOf */.UX)(manifest, state.options.defaultUpdateStrategy);
    }
    catch (err) {
        strategy = err;
    }
    const info = await state.client.resolve(manifest.apiVersion, manifest.kind);
    const absorbed = takeoverManagers(live);
    const takenOver = absorbed.size > 0 ? [...absorbed].sort() : undefined;
    // what our own last apply left in place needs no dry-run to be known unchanged (an exhaustive preview and
    // `preflight: all` ask the server about every object all the same)
    const exhaustive = (state.ask.kind === 'all' && state.ask.exhaustive) || fresh !== undefined;
    const provenUnchanged = !!live &&
        !takenOver &&
        !exhaustive &&
        provenNoOp(live, manifest, fieldManager) &&
        !sharesWithHandEdits(live, ownerContext(state, manifest, live));
    return {
        ...base,
        info,
        crdInPackage: !info && crdInPackage(state, manifest),
        strategy,
        ...(takenOver ? { takenOver } : {}),
        provenUnchanged,
    };
}
/** Whether this run asks the server about `id` (its policy; for a sample, `preflightSample`). */
function asks(state, id) {
    switch (state.ask.kind) {
        case 'all':
            return true;
        case 'none':
            return false;
        case 'sample':
            return preflightSample(state).has((0,object_id/* idKey */.T4)(id));
    }
}
const samples = new WeakMap();
/**
 * The pre-flight's `auto` sample: every object that exists, every object of the later waves, and of the first
 * wave's new objects the first of each kind and namespace that the server can judge (a wave is ordered by
 * kind, then by id). The rest of the first wave is judged by its own write, as kpt does.
 */
function preflightSample(state) {
    let sample = samples.get(state);
    if (sample)
        return sample;
    sample = new Set();
    const firstWave = new Set((state.plan.applyWaves[0] ?? []).map(object_id/* idKey */.T4));
    const sampled = new Set();
    for (const id of state.plan.applyWaves.flat()) {
        const key = (0,object_id/* idKey */.T4)(id);
        if (!firstWave.has(key) || state.live.get(key)) {
            sample.add(key);
            continue;
        }
        if (missingPrerequisite(state, id) || applySkip(state, id))
            continue;
        const kindNs = `${id.group}/${id.kind}/${id.namespace}`;
        if (sampled.has(kindNs))
            continue;
        sampled.add(kindNs);
        sample.add(key);
    }
    samples.set(state, sample);
    return sample;
}
function crdInPackage(state, manifest) {
    const { group } = (0,kube_object/* splitApiVersion */.Np)(manifest.apiVersion);
    return [...state.manifests.values()].some((m) => m.kind === 'CustomResourceDefinition' && m.spec?.group === group);
}

;// CONCATENATED MODULE: ./src/apply/ownership-write.ts





/** How many times a write is sent, each time decided again on a fresh read, before its failure is the object's. */
const WriteAttempts = 5;
/**
 * Writes a create or configure the way its decision says (field-owners.ts): the managedFields rewrite that
 * moves the released and taken-over fields first (a JSON patch that tests the resourceVersion the decision
 * was made on), then the server-side apply, forced when the decision takes fields, carrying that
 * resourceVersion, so only the fields decided on move. When the object changed in between (a controller
 * writes a Deployment's status, a person edits it), the patch's test fails (422), the pinned apply answers
 * 409, or an unforced apply meets a new conflict: the object is read again and decided again, up to
 * WriteAttempts times.
 */
async function writeDecided(state, id, first) {
    const manifest = state.manifests.get((0,object_id/* idKey */.T4)(id));
    const ref = { ...(0,object_id/* idOf */.TH)(manifest), apiVersion: manifest.apiVersion };
    let decision = first;
    let live = state.live.get((0,object_id/* idKey */.T4)(id)) ?? undefined;
    for (let attempt = 1;; attempt++) {
        const o = decision.ownership;
        const pinned = !!live && (!!o?.managedFields || !!o?.force);
        try {
            let resourceVersion = live?.metadata.resourceVersion;
            if (live && o?.managedFields)
                resourceVersion = (await state.client.jsonPatch(ref, ownershipPatch(live, o.managedFields))).metadata
                    .resourceVersion;
            const body = pinned ? { ...manifest, metadata: { ...manifest.metadata, resourceVersion } } : manifest;
            const written = await state.client.apply(body, {
                fieldManager: state.options.fieldManager,
                force: !!o?.force || state.options.forceConflicts,
                dryRun: false,
            });
            return { written, decision };
        }
        catch (err) {
            if (!(err instanceof api_error/* KubeApiError */.W3) || (err.code !== 409 && err.code !== 422))
                throw err;
            const fresh = (await state.client.get(ref)) ?? null;
            const moved = fresh?.metadata.resourceVersion !== live?.metadata.resourceVersion;
            // a refusal of the object as it was (invalid, a conflict the decision did not know of when nothing moved)
            if (!moved && !(err.code === 409 && fieldConflicts(err)))
                throw err;
            if (attempt >= WriteAttempts)
                throw new api_error/* KubeApiError */.W3(409, 'Conflict', `${ref.kind} ${ref.name} changed under each of ${WriteAttempts} attempts to write it as decided ` +
                    '(another writer updates it all the time): apply again');
            live = fresh ?? undefined;
            decision = await decideObject(state, id, fresh);
            if (decision.action !== 'create' && decision.action !== 'configure')
                return { decided: decision };
        }
    }
}

;// CONCATENATED MODULE: ./src/apply/carry-out.ts







/**
 * Carries out a decision the pre-flight walk took (decide-object.ts), for real: nothing for an unchanged
 * object or a skip; the write for a create or a configure (the client-side takeover first); delete and
 * create for a replace. The write's own answer says what it did (the server skips a no-op write); an
 * immutable field it trips over is a replace when the object's strategy allows. Never throws.
 */
async function carryOut(state, id, d) {
    const key = (0,object_id/* idKey */.T4)(id);
    const live = state.live.get(key) ?? undefined;
    const manifest = state.manifests.get(key);
    try {
        if (d.action === 'replace')
            return await replace(state, live, manifest, d.info);
        // nothing to write: what a dry run reports is what happens
        if (d.action !== 'create' && d.action !== 'configure')
            return await carriedInDryRun(state, d);
        const info = d.info ?? (await resolveNewKind(state, manifest));
        if (!info)
            throw new cluster_client/* UnknownKindError */.r(manifest.apiVersion, manifest.kind);
        let w;
        try {
            w = await writeDecided(state, id, d);
        }
        catch (err) {
            const fields = (0,update_strategy/* immutableFields */.KL)(err);
            const strategy = (0,update_strategy/* updateStrategyOf */.UX)(manifest, state.options.defaultUpdateStrategy);
            if (live && fields && strategy === 'fallback-on-replace')
                return await replace(state, live, manifest, info);
            throw err;
        }
        if ('decided' in w) {
            // read again, the object needs no write after all (unchanged), or now fails (a co-owner's conflict)
            state.decisions.set((0,object_id/* idKey */.T4)(id), w.decided);
            return w.decided.action === 'replace'
                ? await replace(state, live, manifest, info)
                : await carriedInDryRun(state, w.decided);
        }
        const moved = !!w.decision.takenOver || !!w.decision.ownership?.managedFields;
        return { status: 'Successful', operation: writeOutcome(live, w.written, moved), object: w.written, info };
    }
    catch (err) {
        return { status: 'Failed', error: explainApplyError(err).message };
    }
}
async function replace(state, live, manifest, info) {
    await (0,update_strategy/* deleteForReplace */.LW)(state.client, live, state.options.pruneTimeoutMs);
    return { status: 'Successful', operation: 'replaced', object: await write(state, manifest), info };
}
/** A create after a delete: nobody else holds a field of a new object. */
function write(state, manifest) {
    return state.client.apply(manifest, {
        fieldManager: state.options.fieldManager,
        force: state.options.forceConflicts,
        dryRun: false,
    });
}
/**
 * Discovery for a kind whose CRD this run just established can lag for a moment: look again (refreshing
 * discovery) for up to 15 s before the apply reports the kind as unknown.
 */
async function resolveNewKind(state, manifest) {
    const deadline = Date.now() + 15_000;
    for (let delay = 100;; delay = Math.min(delay * 2, 2000)) {
        const info = await state.client.resolve(manifest.apiVersion, manifest.kind);
        if (info)
            return info; // nearly always: looking through what was applied is for the rare miss
        const crdApplied = [...state.applied.keys()].some((k) => k.endsWith('_apiextensions.k8s.io_CustomResourceDefinition'));
        if (!crdApplied || Date.now() > deadline)
            return info;
        await new Promise((r) => setTimeout(r, delay));
        state.client.resetDiscovery();
    }
}
const DryOperation = {
    create: 'created',
    configure: 'configured',
    replace: 'replaced',
};
/** What a dry run reports for a decision: what carrying it out would do, with no write. */
async function carriedInDryRun(state, d) {
    switch (d.action) {
        case 'skip':
            if (d.blocked && d.skip)
                return { status: 'Skipped', skip: await withOwner(state, d.skip) };
            return { status: 'Successful', operation: 'skipped', info: d.info };
        case 'error':
            return { status: 'Failed', error: d.reason ?? 'rejected' };
        case 'unchanged':
            return { status: 'Successful', operation: 'unchanged', object: d.object, info: d.info };
        case 'create':
        case 'configure':
        case 'replace':
            return { status: 'Successful', operation: DryOperation[d.action], object: d.object, info: d.info };
        default:
            throw new Error(`internal error: ${d.action} is not an apply decision`);
    }
}

;// CONCATENATED MODULE: ./src/apply/run-ordered.ts
/**
 * Runs `work` over `items` with at most `limit` in flight, and hands results to `onResult` in input order
 * as soon as every earlier item is done, so events stay deterministic while requests overlap.
 * `shouldStart` is asked before each item starts (cancellation: items not started get `undefined`).
 */
async function runOrdered(items, limit, work, onResult, shouldStart = () => true) {
    const results = new Array(items.length);
    const done = new Array(items.length).fill(false);
    let next = 0;
    let emitted = 0;
    const flush = () => {
        while (emitted < items.length && done[emitted]) {
            onResult(items[emitted], results[emitted], emitted);
            emitted++;
        }
    };
    const worker = async () => {
        while (next < items.length) {
            const i = next++;
            if (shouldStart())
                results[i] = await work(items[i], i);
            done[i] = true;
            flush();
        }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    flush();
    return results;
}

;// CONCATENATED MODULE: ./src/apply/run-state.ts


/** A fresh state for one run. */
function newRunState(base, startedAt) {
    return {
        dryRun: false,
        ask: { kind: 'none' },
        planned: new Map(),
        ...base,
        decisions: new Map(),
        outcomes: new Map(),
        applied: new Map(),
        deleted: new Set(),
        gone: new Set(),
        blocked: new Map(),
        owners: new Map(),
        startedAt,
        cancelled: () => !!base.signal?.aborted,
    };
}
function outcomeFor(state, id) {
    const key = (0,object_id/* idKey */.T4)(id);
    let o = state.outcomes.get(key);
    if (!o) {
        o = { id, action: 'none', source: state.sources.get(key) };
        state.outcomes.set(key, o);
    }
    return o;
}
/** From now on, what depends on this object is skipped, and says why (kpt's DependencyFilter). */
function markBlocked(state, id, cause) {
    state.blocked.set((0,object_id/* idKey */.T4)(id), cause);
}
/**
 * Forgotten instead of deleted (a keep annotation, a kind alias just applied, a Namespace left in place):
 * the phase that decided it set its outcome's action to `abandoned`.
 */
function isAbandoned(state, key) {
    return state.outcomes.get(key)?.action === 'abandoned';
}
/** A DELETE the server accepted; `gone` when it answered that the object is removed already. */
function recordDeleted(state, id, gone) {
    state.deleted.add((0,object_id/* idKey */.T4)(id));
    if (gone)
        state.gone.add((0,object_id/* idKey */.T4)(id));
}
/**
 * The inventory after the run, as cli-utils' inventory-set task computes it: what was there before, minus
 * what was deleted, abandoned or already gone, plus every object applied successfully. New objects that
 * failed or were skipped are not recorded; objects we could not delete stay tracked.
 */
function finalInventory(state) {
    const entries = new Map();
    for (const [key, id] of state.previous) {
        if (state.deleted.has(key) || isAbandoned(state, key))
            continue;
        if (state.live.get(key) === null && !state.manifests.has(key))
            continue;
        const o = state.outcomes.get(key);
        const isApply = state.manifests.has(key);
        entries.set(key, {
            id,
            strategy: isApply ? 'Apply' : 'Delete',
            actuation: actuationOf(o),
            reconcile: reconcileOf(o?.reconcile),
        });
    }
    // `applied` holds successful applies only
    for (const key of state.applied.keys()) {
        const o = state.outcomes.get(key);
        entries.set(key, {
            id: o.id,
            strategy: 'Apply',
            actuation: 'Succeeded',
            reconcile: reconcileOf(o.reconcile),
        });
    }
    return [...entries.values()];
}
function actuationOf(o) {
    if (!o || o.action === 'none')
        return 'Pending';
    if (o.action === 'failed')
        return 'Failed';
    if (o.action === 'skipped' || o.action === 'abandoned')
        return 'Skipped';
    return 'Succeeded';
}
function reconcileOf(w) {
    switch (w) {
        case 'Successful':
            return 'Succeeded';
        case 'Failed':
            return 'Failed';
        case 'Timeout':
            return 'Timeout';
        case 'Skipped':
            return 'Skipped';
        default:
            return 'Pending';
    }
}
/**
 * The outcomes in the order the walk reached them, each with what the run decided for it and the objects
 * that decision was taken on (the views in src/preview read them).
 */
function withDecisions(state) {
    return [...state.outcomes.values()].map((o) => {
        const key = (0,object_id/* idKey */.T4)(o.id);
        const decision = state.decisions.get(key);
        if (!decision)
            return o;
        const manifest = state.manifests.get(key);
        const decided = {
            decision,
            ...(manifest ? { manifest } : {}),
            live: state.live.get(key) ?? null,
        };
        return { ...o, [DecidedOn]: decided };
    });
}

;// CONCATENATED MODULE: ./src/apply/apply-wave.ts








/**
 * One apply task: each object of the wave, with bounded concurrency, events in wave order. A dry run takes
 * each object's decision (decideObject) and reports what carrying it out would do; a real run carries out
 * the decision its pre-flight walk took (`state.planned`), unless something it depends on failed since.
 */
async function applyWave(state, wave, group, waveIndex) {
    await runOrdered(wave, state.options.concurrency, async (id) => {
        const key = (0,object_id/* idKey */.T4)(id);
        if (state.dryRun) {
            const d = await decideObject(state, id);
            state.decisions.set(key, d);
            return carriedInDryRun(state, d);
        }
        const blocked = applySkip(state, id);
        if (blocked)
            return { status: 'Skipped', skip: await withOwner(state, blocked) };
        const d = state.planned.get(key) ?? (await decideObject(state, id));
        state.decisions.set(key, d);
        return carryOut(state, id, d);
    }, (id, result) => record(state, id, group, waveIndex, result), () => !state.cancelled());
}
function record(state, id, group, waveIndex, result) {
    const key = (0,object_id/* idKey */.T4)(id);
    const o = outcomeFor(state, id);
    o.wave = waveIndex + 1;
    if (!result) {
        markBlocked(state, id, 'apply actuation skipped');
        o.action = 'skipped';
        o.skip = { type: 'cancelled' };
        o.message = skipMessage(o.skip);
        state.emit({ type: 'apply', group, id, status: 'Skipped', error: o.message });
        return;
    }
    if (result.status === 'Successful') {
        const { operation, object } = result;
        state.applied.set(key, {
            uid: object?.metadata.uid ?? state.live.get(key)?.metadata.uid,
            generation: object?.metadata.generation,
            touched: operation !== 'unchanged' && operation !== 'skipped',
            hasStatus: !!result.info?.hasStatus,
            // a skipped update returns the metadata-only live object: no status to judge
            object: operation === 'skipped' ? undefined : object,
        });
        o.action = operation;
        state.emit({ type: 'apply', group, id, status: 'Successful', operation });
        return;
    }
    const failed = result.status === 'Failed';
    markBlocked(state, id, failed ? 'apply actuation failed' : 'apply actuation skipped');
    o.action = failed ? 'failed' : 'skipped';
    if (!failed)
        o.skip = result.skip;
    o.message = failed ? result.error : skipMessage(result.skip);
    state.emit({ type: 'apply', group, id, status: result.status, error: o.message });
}
/** Whether an object opted out of waiting (`kapp.k14s.io/disable-wait`). */
function waitDisabled(state, id) {
    const a = state.manifests.get((0,object_id/* idKey */.T4)(id))?.metadata.annotations ?? {};
    const v = a[constants/* Annotations */.rB.KappDisableWait];
    return v !== undefined && v !== 'false';
}

;// CONCATENATED MODULE: ./src/apply/group.ts
/** Runs one task group between its Started and Finished events (kpt's action groups). */
async function group(emit, name, action, fn) {
    emit({ type: 'group', name, action, status: 'Started' });
    const result = await fn();
    emit({ type: 'group', name, action, status: 'Finished' });
    return result;
}

;// CONCATENATED MODULE: ./src/apply/prune-wave.ts








function decision(reason, abandon) {
    return abandon ? { skip: skipMessage(reason), reason, abandon } : { skip: skipMessage(reason), reason };
}
/**
 * Why an inventory object must not be deleted now (cli-utils' prune filters, in their order): an
 * annotation that keeps it (then it is abandoned: forgotten, not deleted), another owner under the
 * inventory policy, a Namespace still in use, something in the package that depends on it, or a UID that
 * this run just applied under another name.
 */
function pruneDecision(state, id, live) {
    const keep = preventsDeletion(live);
    if (keep)
        return decision({ type: 'annotation', ...keep }, true);
    const refused = pruneBlockedBy(live, state.inventory.id, state.options.inventoryPolicy);
    if (refused) {
        return decision({
            type: 'inventory-policy',
            strategy: 'Delete',
            match: refused.match,
            policy: state.options.inventoryPolicy,
            ...(refused.owner ? { owner: { id: refused.owner } } : {}),
        });
    }
    if (id.group === '' && id.kind === 'Namespace') {
        const inUse = id.name === state.inventory.namespace ||
            [...state.manifests.values()].some((m) => (m.metadata.namespace ?? '') === id.name);
        if (inUse)
            return decision({ type: 'in-use', message: `namespace still in use: ${id.name}` });
    }
    for (const dependent of dependentsOf(state.plan, id)) {
        const depKey = (0,object_id/* idKey */.T4)(dependent);
        if (state.manifests.has(depKey))
            return decision({
                type: 'in-use',
                message: `dependent scheduled for apply: ${(0,object_id/* formatInventoryId */.RP)(dependent)}`,
            });
        const o = state.outcomes.get(depKey);
        if (o && (o.action === 'failed' || o.action === 'skipped')) {
            const cause = o.action === 'failed' ? 'delete actuation failed' : 'delete actuation skipped';
            // a dependent kept on purpose (still in use) keeps this one too, as kpt does, and fails nothing
            if (o.action === 'skipped' && o.skip?.type === 'in-use')
                return decision({ type: 'in-use', message: `dependent ${cause}: ${(0,object_id/* formatInventoryId */.RP)(dependent)}` });
            return decision({ type: 'dependent', dependent, cause });
        }
        if (o?.reconcile === 'Timeout')
            return decision({ type: 'dependent', dependent, cause: 'delete reconcile timeout' });
    }
    for (const applied of state.applied.values()) {
        if (applied.uid && applied.uid === live.metadata.uid)
            return decision({ type: 'just-applied', uid: applied.uid }, true);
    }
    return undefined;
}
/** Deletes one wave of inventory objects (prune or destroy), with a UID precondition on every DELETE. */
async function pruneWave(state, wave, group, type) {
    await runOrdered(wave, state.options.concurrency, async (id) => {
        const key = (0,object_id/* idKey */.T4)(id);
        const live = state.live.get(key);
        if (!live)
            return { status: 'Successful', gone: true };
        const decided = pruneDecision(state, id, live);
        state.decisions.set(key, pruneRecord(decided));
        try {
            if (decided?.abandon) {
                if (!state.dryRun)
                    await abandon(state, id, live);
                return { status: 'Skipped', reason: decided.reason, abandoned: true };
            }
            if (decided)
                return { status: 'Skipped', reason: await withOwner(state, decided.reason) };
            if (state.dryRun)
                return { status: 'Successful', gone: true };
            const res = await state.client.delete({ ...id, apiVersion: live.apiVersion }, { uid: live.metadata.uid, propagationPolicy: state.options.prunePropagationPolicy });
            return { status: 'Successful', gone: res !== 'pending' };
        }
        catch (err) {
            return { status: 'Failed', error: err.message };
        }
    }, (id, result) => {
        const o = outcomeFor(state, id);
        if (!result) {
            o.action = 'skipped';
            o.skip = { type: 'cancelled' };
            o.message = skipMessage(o.skip);
            state.emit({ type, group, id, status: 'Skipped', error: o.message });
            return;
        }
        if (result.status === 'Successful') {
            recordDeleted(state, id, 'gone' in result && !!result.gone);
            o.action = type === 'prune' ? 'pruned' : 'deleted';
        }
        else if (result.reason) {
            o.action = result.abandoned ? 'abandoned' : 'skipped';
            o.skip = result.reason;
            o.message = skipMessage(result.reason);
        }
        else {
            o.action = 'failed';
            o.message = result.error;
        }
        const error = result.status === 'Successful' ? undefined : o.message;
        state.emit({ type, group, id, status: result.status, error });
    }, () => !state.cancelled());
}
/** The prune decision as the run records it (a view of `pruneDecision`). */
function pruneRecord(decided) {
    if (!decided)
        return { action: 'prune', validated: true, reason: 'no longer in the package' };
    const { reason, abandon } = decided;
    const blocked = isBlockingSkip(reason);
    return {
        action: abandon ? 'orphan' : 'skip',
        validated: true,
        reason: decided.skip,
        skip: reason,
        blocked,
    };
}
/** Forgets an object: removes our owning-inventory annotation (it leaves the inventory, stays in the cluster). */
async function abandon(state, id, live) {
    if (live.metadata.annotations?.[constants/* Annotations */.rB.OwningInventory] === undefined)
        return;
    await state.client.jsonPatch({ ...id, apiVersion: live.apiVersion }, [
        {
            op: 'remove',
            path: `/metadata/annotations/${constants/* Annotations */.rB.OwningInventory.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        },
    ]);
}

// EXTERNAL MODULE: ./src/common/duration.ts
var duration = __webpack_require__(5541);
;// CONCATENATED MODULE: ./src/status/object-watcher.ts



/**
 * Keeps a cache of the objects a run cares about: one LIST + WATCH per kind and namespace (never
 * cluster-wide for namespaced kinds, so a namespace-scoped user works), re-listing when a watch ends,
 * and polling GETs when the credentials may not list or watch.
 */
class ObjectWatcher {
    client;
    options;
    cache = new Map();
    feeds = new Map();
    listeners = new Set();
    stopped = false;
    constructor(
    /** The run's cluster client (fail-fast lists pods through it). */
    client, options = {}) {
        this.client = client;
        this.options = options;
    }
    get(ref) {
        const key = (0,object_id/* idKey */.T4)(ref);
        return this.cache.has(key) ? this.cache.get(key) : undefined;
    }
    subscribe(listener) {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }
    /**
     * Starts watching these objects; resolves once each one's kind and namespace has been listed, with the
     * refs whose kind and namespace were already watched before this call: their cached state may predate a
     * write the caller just made (refresh them). The others come from a LIST made after this call began.
     */
    async track(refs) {
        const waits = [];
        const known = [];
        const started = new Set();
        for (const ref of refs) {
            const info = await this.client.resolveId(ref);
            if (!info) {
                this.set((0,object_id/* idKey */.T4)(ref), null);
                continue;
            }
            const ns = info.namespaced ? ref.namespace : undefined;
            const feedKey = `${info.group}/${info.kind}/${ns ?? ''}`;
            let feed = this.feeds.get(feedKey);
            if (!feed) {
                feed = this.startFeed(info, ns);
                this.feeds.set(feedKey, feed);
                started.add(feed);
            }
            if (!started.has(feed))
                known.push(ref);
            feed.tracked.add((0,object_id/* idKey */.T4)(ref));
            waits.push(feed.synced);
        }
        await Promise.all(waits);
        // an object that the list did not return does not exist (yet)
        for (const ref of refs)
            if (!this.cache.has((0,object_id/* idKey */.T4)(ref)))
                this.set((0,object_id/* idKey */.T4)(ref), null);
        return known;
    }
    /**
     * Fetches these objects again right now (after a write), so a wait never reads a stale answer: one LIST
     * per kind and namespace where three or more share one, else a GET each.
     */
    async refresh(refs) {
        // several objects of one kind and namespace: one LIST instead of a GET each (a prune wave of many)
        const groups = new Map();
        const gets = [];
        for (const ref of refs) {
            const info = await this.client.resolveId(ref);
            if (!info) {
                gets.push(ref);
                continue;
            }
            const namespace = info.namespaced ? ref.namespace : undefined;
            const key = `${info.group}/${info.kind}/${namespace ?? ''}`;
            const g = groups.get(key) ?? { info, namespace, refs: [] };
            g.refs.push(ref);
            groups.set(key, g);
        }
        const byGet = (list) => Promise.all(list.map(async (ref) => this.set((0,object_id/* idKey */.T4)(ref), (await this.client.get(ref)) ?? null)));
        const lists = [...groups.values()].map(async (g) => {
            if (g.refs.length < 3)
                return byGet(g.refs);
            let items;
            try {
                items = (await this.client.list(g.info, g.namespace)).items;
            }
            catch (err) {
                if (err instanceof api_error/* KubeApiError */.W3 && err.forbidden)
                    return byGet(g.refs);
                throw err;
            }
            const wanted = new Set(g.refs.map((r) => (0,object_id/* idKey */.T4)(r)));
            const found = new Set();
            for (const item of items) {
                const key = this.keyOf(g.info, item);
                if (!wanted.has(key))
                    continue;
                item.apiVersion ??= g.info.group ? `${g.info.group}/${g.info.version}` : g.info.version;
                item.kind ??= g.info.kind;
                found.add(key);
                this.set(key, item);
            }
            for (const key of wanted)
                if (!found.has(key))
                    this.set(key, null);
        });
        await Promise.all([...lists, byGet(gets)]);
    }
    stop() {
        this.stopped = true;
        for (const f of this.feeds.values())
            f.stop();
        this.listeners.clear();
    }
    set(key, obj) {
        this.cache.set(key, obj);
        for (const l of this.listeners)
            l(key);
    }
    keyOf(info, obj) {
        return (0,object_id/* idKey */.T4)({
            group: info.group,
            kind: info.kind,
            namespace: obj.metadata.namespace ?? '',
            name: obj.metadata.name,
        });
    }
    startFeed(info, namespace) {
        const tracked = new Set();
        let handle;
        let pollTimer;
        let feedStopped = false;
        let resolveSynced;
        let rejectSynced;
        const synced = new Promise((res, rej) => {
            resolveSynced = res;
            rejectSynced = rej;
        });
        let firstSync = true;
        const poll = async () => {
            if (feedStopped || this.stopped)
                return;
            for (const key of tracked) {
                const ref = refFromKey(key, info);
                try {
                    this.set(key, (await this.client.get(ref)) ?? null);
                }
                catch {
                    // keep the last answer; try again next round
                }
            }
            if (firstSync) {
                firstSync = false;
                resolveSynced();
            }
            pollTimer = setTimeout(() => void poll(), this.options.pollMs ?? 1000);
        };
        // consecutive failures: the delay before the next LIST grows (100 ms … 5 s) and resets on a good LIST
        let failures = 0;
        const again = () => {
            if (feedStopped || this.stopped)
                return;
            const delay = Math.min(5000, 100 * 2 ** Math.min(failures, 6));
            failures++;
            setTimeout(() => void listAndWatch(), delay);
        };
        const listAndWatch = async () => {
            if (feedStopped || this.stopped)
                return;
            try {
                const list = await this.client.list(info, namespace);
                if (feedStopped || this.stopped)
                    return;
                failures = 0;
                const seen = new Set();
                for (const item of list.items) {
                    item.apiVersion ??= info.group ? `${info.group}/${info.version}` : info.version;
                    item.kind ??= info.kind;
                    const key = this.keyOf(info, item);
                    seen.add(key);
                    if (tracked.has(key))
                        this.set(key, item);
                }
                for (const key of tracked)
                    if (!seen.has(key))
                        this.set(key, null);
                if (firstSync) {
                    firstSync = false;
                    resolveSynced();
                }
                handle = await this.client.watch(info, namespace, list.resourceVersion, (ev) => {
                    // an ERROR event (410 Expired, ...) is followed by the server closing the stream: we re-list then
                    if (ev.type === 'BOOKMARK' || ev.type === 'ERROR')
                        return;
                    const obj = ev.object;
                    const key = this.keyOf(info, obj);
                    if (!tracked.has(key))
                        return;
                    this.set(key, ev.type === 'DELETED' ? null : obj);
                }, (err) => {
                    if (feedStopped || this.stopped)
                        return;
                    if (err instanceof api_error/* KubeApiError */.W3 && err.forbidden) {
                        void poll(); // may list but not watch: poll instead
                        return;
                    }
                    // the stream ended or dropped: re-list (events in between are in the new list) and watch again
                    if (err)
                        again();
                    else
                        setTimeout(() => void listAndWatch(), 100);
                });
                if (feedStopped || this.stopped)
                    handle.stop();
            }
            catch (err) {
                if (err instanceof api_error/* KubeApiError */.W3 && err.forbidden) {
                    // may not list/watch here: fall back to polling each object
                    void poll();
                    return;
                }
                if (firstSync && !(0,retry/* isRetryable */.r3)(err)) {
                    rejectSynced(err);
                    return;
                }
                again();
            }
        };
        void listAndWatch();
        return {
            info,
            namespace,
            tracked,
            synced,
            stop() {
                feedStopped = true;
                handle?.stop();
                if (pollTimer)
                    clearTimeout(pollTimer);
            },
        };
    }
}
function refFromKey(key, info) {
    // key = `${ns}_${name}_${group}_${kind}`; names never contain `_`
    const [namespace, name] = key.split('_');
    return {
        apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
        group: info.group,
        kind: info.kind,
        namespace,
        name,
    };
}

;// CONCATENATED MODULE: ./src/status/fields.ts

/**
 * Thrown when an object's fields have the wrong shape for kstatus (cli-utils returns an error there).
 * computeStatus turns it into `Unknown` with this message, as cli-utils' status readers do.
 */
class StatusComputeError extends Error {
    name = 'StatusComputeError';
}
function describe(value) {
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'array';
    return typeof value;
}
/**
 * An integer field, or `fallback` when it is absent or not an integer (cli-utils `GetIntField` accepts only
 * int types, so a string "3" or a float counts as absent).
 */
function intField(obj, path, fallback) {
    const value = (0,kube_object/* getPath */.Yn)(obj, path);
    return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}
/** A string field, or `fallback` when absent or not a string (cli-utils `GetStringField`). */
function stringField(obj, path, fallback) {
    const value = (0,kube_object/* getPath */.Yn)(obj, path);
    return typeof value === 'string' ? value : fallback;
}
/** A boolean field, or `fallback` when absent or not a boolean (cli-utils `GetBoolField`). */
function boolField(obj, path, fallback) {
    const value = (0,kube_object/* getPath */.Yn)(obj, path);
    return typeof value === 'boolean' ? value : fallback;
}
/**
 * The object's `status.conditions`, as cli-utils converts them: an absent list is empty, but a list or
 * entry of the wrong shape is an error (the object is then Unknown, not silently Current).
 */
function readConditions(obj) {
    const status = obj.status;
    if (status === undefined || status === null)
        return [];
    if (typeof status !== 'object' || Array.isArray(status)) {
        throw new StatusComputeError(`status: expected an object, found ${describe(status)}`);
    }
    const list = status.conditions;
    if (list === undefined || list === null)
        return [];
    if (!Array.isArray(list)) {
        throw new StatusComputeError(`status.conditions: expected a list, found ${describe(list)}`);
    }
    return list.map((entry, i) => {
        if (entry === null)
            return { type: '', status: '', reason: '', message: '' };
        if (typeof entry !== 'object' || Array.isArray(entry)) {
            throw new StatusComputeError(`status.conditions[${i}]: expected an object, found ${describe(entry)}`);
        }
        const read = (key) => {
            const value = entry[key];
            if (value === undefined || value === null)
                return '';
            if (typeof value !== 'string') {
                throw new StatusComputeError(`status.conditions[${i}].${key}: expected a string, found ${describe(value)}`);
            }
            return value;
        };
        return { type: read('type'), status: read('status'), reason: read('reason'), message: read('message') };
    });
}
/** The first condition of `type` with `status` (cli-utils `getConditionWithStatus`). */
function findCondition(conditions, type, status) {
    return conditions.find((c) => c.type === type && c.status === status);
}
/** A Current result (no synthesized condition, so no reason). */
function current(message) {
    return { status: 'Current', message };
}
/** InProgress with the reason of its synthesized `Reconciling` condition (cli-utils `newInProgressStatus`). */
function inProgress(reason, message) {
    return reason ? { status: 'InProgress', message, reason } : { status: 'InProgress', message };
}
/** Failed with the reason of its synthesized `Stalled` condition (cli-utils `newFailedStatus`). */
function fields_failed(reason, message) {
    return reason ? { status: 'Failed', message, reason } : { status: 'Failed', message };
}

;// CONCATENATED MODULE: ./src/status/nested-field.ts


/**
 * apimachinery's `unstructured.NestedFieldNoCopy`, which cli-utils and kpt read typed fields through:
 * `found` false when a field on the way is missing or null; an error when something on the way is there but
 * not an object (`.status.observedGeneration accessor error: x is of the type string, expected
 * map[string]interface{}`). A null at the end is found (its type is then wrong for every reader).
 */
function nestedField(obj, path) {
    let value = obj;
    for (const [i, field] of path.entries()) {
        if (value === null || value === undefined)
            return { found: false };
        if (!(0,kube_object/* isRecord */.u4)(value))
            throw accessorError(path.slice(0, i + 1), value, 'map[string]interface{}');
        if (!Object.hasOwn(value, field))
            return { found: false };
        value = value[field];
    }
    return { found: true, value };
}
/**
 * `unstructured.NestedInt64` behind the `looking up <path> from resource: ` prefix kpt and cli-utils put
 * on its error: undefined when absent; a StatusComputeError (the object is Unknown) when not an integer.
 */
function nestedInt64(obj, path) {
    return nested(obj, path, 'int64', (v) => typeof v === 'number' && Number.isInteger(v));
}
/** `unstructured.NestedBool`, with the same prefix on its error. */
function nestedBool(obj, path) {
    return nested(obj, path, 'bool', (v) => typeof v === 'boolean');
}
function nested(obj, path, expected, is) {
    try {
        const { found, value } = nestedField(obj, path);
        if (!found)
            return undefined;
        if (!is(value))
            throw accessorError(path, value, expected);
        return value;
    }
    catch (err) {
        throw new StatusComputeError(`looking up ${path.join('.')} from resource: ${err.message}`);
    }
}
/** apimachinery's accessor error, as Go prints it (`%v accessor error: %v is of the type %T, expected ...`). */
function accessorError(path, value, expected) {
    return new Error(`.${path.join('.')} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected ${expected}`);
}
/** Go's `%v` of a decoded JSON value (unstructured holds integers as int64, other numbers as float64). */
function goValue(value) {
    if (value === null || value === undefined)
        return '<nil>';
    if (Array.isArray(value))
        return `[${value.map(goValue).join(' ')}]`;
    if (typeof value === 'object') {
        const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
        return `map[${entries.map(([k, v]) => `${k}:${goValue(v)}`).join(' ')}]`;
    }
    return String(value);
}
/** Go's `%T` of a decoded JSON value. */
function goType(value) {
    if (value === null || value === undefined)
        return '<nil>';
    if (Array.isArray(value))
        return '[]interface {}';
    if (typeof value === 'object')
        return 'map[string]interface {}';
    if (typeof value === 'number')
        return Number.isInteger(value) ? 'int64' : 'float64';
    return typeof value === 'boolean' ? 'bool' : 'string';
}

;// CONCATENATED MODULE: ./src/status/generic.ts


/** kstatus' message for an object being deleted; also used by the Config Connector rules. */
const TERMINATING_MESSAGE = 'Resource scheduled for deletion';
/** Terminating when `metadata.deletionTimestamp` is set, whatever the kind. */
function terminatingStatus(obj) {
    const ts = obj.metadata.deletionTimestamp;
    return typeof ts === 'string' && ts !== ''
        ? { status: 'Terminating', message: TERMINATING_MESSAGE }
        : undefined;
}
/**
 * InProgress while the controller has not observed the latest spec. Lenient like cli-utils: an object
 * without `status.observedGeneration` passes (kinds that always have one check it themselves).
 */
function generationStatus(obj) {
    const generation = nestedInt64(obj, ['metadata', 'generation']);
    if (generation === undefined)
        return undefined;
    const observed = nestedInt64(obj, ['status', 'observedGeneration']);
    if (observed === undefined || observed === generation)
        return undefined;
    return inProgress('LatestGenerationNotObserved', `${obj.kind} generation is ${generation}, but latest observed generation is ${observed}`);
}
/**
 * The rules every object gets before its kind's own (cli-utils `checkGenericProperties`): deletion,
 * generation, then the standard `Reconciling=True` / `Stalled=True` conditions, first in list order
 * winning. Undefined when none decides, so the kind rules run.
 */
function genericStatus(obj) {
    const decided = terminatingStatus(obj) ?? generationStatus(obj);
    if (decided)
        return decided;
    for (const c of readConditions(obj)) {
        if (c.type === 'Reconciling' && c.status === 'True')
            return inProgress(c.reason, c.message);
        if (c.type === 'Stalled' && c.status === 'True')
            return fields_failed(c.reason, c.message);
    }
    return undefined;
}
/**
 * The `Ready` condition, for kinds with no rule of their own (custom resources): True ⇒ Current,
 * False or Unknown ⇒ InProgress with the condition's reason and message. Any other value is skipped.
 */
function readyConditionStatus(obj) {
    for (const c of readConditions(obj)) {
        if (c.type !== 'Ready')
            continue;
        if (c.status === 'True')
            return { status: 'Current', message: 'Resource is Ready' };
        if (c.status === 'False' || c.status === 'Unknown')
            return inProgress(c.reason, c.message);
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/status/kinds/always-ready.ts

/**
 * ConfigMap, Secret and batch/CronJob, cli-utils `alwaysReady`: nothing reconciles them into a state
 * worth waiting for, so they are Current as soon as they exist (the generic rules still apply first).
 */
const alwaysReadyStatus = () => current('Resource is always ready');

;// CONCATENATED MODULE: ./src/status/kinds/config-connector.ts




/** Ready reasons after which Config Connector will not get further without someone's help. */
const STUCK_REASONS = new Set(['ManagementConflict', 'UpdateFailed', 'DeleteFailed', 'DependencyInvalid']);
/** True for Config Connector groups (kpt matches the suffix `cnrm.cloud.google.com`). */
function isConfigConnector(obj) {
    return (0,kube_object/* splitApiVersion */.Np)(obj.apiVersion).group.endsWith('cnrm.cloud.google.com');
}
/** ConfigConnectorContext reports health, not conditions (an explicit null is not a boolean either). */
function contextStatus(obj) {
    const healthy = nestedBool(obj, ['status', 'healthy']);
    if (healthy === undefined)
        return inProgress('NotReady', 'status.healthy property not set');
    return healthy ? current('status.healthy is true') : inProgress('NotReady', 'status.healthy is false');
}
/**
 * kpt's custom status reader for Config Connector (kpt 1.0.0-beta.56 pkg/status/configconnector.go), used
 * instead of every kstatus rule but deletion. Config Connector always sets `status.observedGeneration`, so
 * one that is missing is an error (Unknown, as kpt reports it: the wait stays pending); a field of the
 * wrong type, or one under something that is not an object, is Unknown with apimachinery's message
 * (nested-field.ts). Then the last `Ready` condition decides; a few Ready reasons mean the resource is stuck
 * and are Failed. Where we differ from kpt, in what no user sees: the InProgress results carry a reason
 * (kpt's have none), and `status.conditions` of the wrong shape is Unknown with readConditions' message
 * (`status.conditions: expected a list, found string`), not the one of kpt's unstructured converter.
 */
function configConnectorStatus(obj) {
    const terminating = terminatingStatus(obj);
    if (terminating)
        return terminating;
    if (obj.kind === 'ConfigConnectorContext')
        return contextStatus(obj);
    const generation = nestedInt64(obj, ['metadata', 'generation']);
    if (generation === undefined)
        throw new StatusComputeError('metadata.generation not found');
    const observed = nestedInt64(obj, ['status', 'observedGeneration']);
    if (observed === undefined)
        throw new StatusComputeError('status.ObservedGeneration not found');
    if (observed !== generation) {
        return inProgress('LatestGenerationNotObserved', `${obj.kind} generation is ${generation}, but latest observed generation is ${observed}`);
    }
    const ready = readConditions(obj)
        .filter((c) => c.type === 'Ready')
        .at(-1);
    if (!ready)
        return inProgress('NoReadyCondition', 'Ready condition not set');
    if (ready.status === 'True')
        return current('Resource is Current');
    if (STUCK_REASONS.has(ready.reason))
        return fields_failed(ready.reason, ready.message);
    return inProgress(ready.reason, ready.message);
}

;// CONCATENATED MODULE: ./src/status/kinds/crd.ts

/**
 * apiextensions.k8s.io/CustomResourceDefinition, cli-utils `CRDConditions`: Current once `Established`;
 * Failed when its names clash (`NamesAccepted=False`) or it is not established for a reason other than
 * still installing; otherwise InProgress. Conditions are read in list order, the first decisive one wins.
 */
const crdStatus = (obj) => {
    for (const c of readConditions(obj)) {
        if (c.type === 'NamesAccepted' && c.status === 'False')
            return fields_failed(c.reason, c.message);
        if (c.type === 'Established') {
            if (c.status === 'False' && c.reason !== 'Installing')
                return fields_failed(c.reason, c.message);
            if (c.status === 'True')
                return current('CRD is established');
        }
    }
    return inProgress('Installing', 'Install in progress');
};

;// CONCATENATED MODULE: ./src/status/kinds/daemonset.ts


/**
 * apps/DaemonSet (and extensions/DaemonSet), cli-utils `daemonsetConditions`. Unlike the generic rule,
 * both generations must be present: the DaemonSet controller always sets observedGeneration once it has
 * acted, so its absence means "not looked at yet". Then every per-node count must reach
 * `desiredNumberScheduled`.
 */
const daemonSetStatus = (obj) => {
    if (nestedInt64(obj, ['metadata', 'generation']) === undefined) {
        return inProgress('NoGeneration', `${obj.kind} metadata.generation not found`);
    }
    if (nestedInt64(obj, ['status', 'observedGeneration']) === undefined) {
        return inProgress('NoObservedGeneration', `${obj.kind} status.observedGeneration not found`);
    }
    const desired = intField(obj, ['status', 'desiredNumberScheduled'], -1);
    const scheduled = intField(obj, ['status', 'currentNumberScheduled'], 0);
    const updated = intField(obj, ['status', 'updatedNumberScheduled'], 0);
    const available = intField(obj, ['status', 'numberAvailable'], 0);
    const ready = intField(obj, ['status', 'numberReady'], 0);
    if (desired === -1)
        return inProgress('NoDesiredNumber', 'Missing .status.desiredNumberScheduled');
    if (desired > scheduled)
        return inProgress('LessCurrent', `Current: ${scheduled}/${desired}`);
    if (desired > updated)
        return inProgress('LessUpdated', `Updated: ${updated}/${desired}`);
    if (desired > available)
        return inProgress('LessAvailable', `Available: ${available}/${desired}`);
    if (desired > ready)
        return inProgress('LessReady', `Ready: ${ready}/${desired}`);
    return current(`All replicas scheduled as expected. Replicas: ${desired}`);
};

;// CONCATENATED MODULE: ./src/status/kinds/deployment.ts

/** The controller's "no deadline" value: without `progressDeadlineSeconds` no Progressing condition is set. */
const NO_PROGRESS_DEADLINE = 2_147_483_647;
/**
 * apps/Deployment (and extensions/Deployment), cli-utils `deploymentConditions`: a passed progress
 * deadline is Failed; otherwise every replica count must match `spec.replicas` and the Deployment must
 * report its new ReplicaSet available and itself `Available=True`.
 */
const deploymentStatus = (obj) => {
    let progressing = intField(obj, ['spec', 'progressDeadlineSeconds'], NO_PROGRESS_DEADLINE) === NO_PROGRESS_DEADLINE;
    let available = false;
    for (const c of readConditions(obj)) {
        if (c.type === 'Progressing') {
            if (c.reason === 'ProgressDeadlineExceeded')
                return fields_failed(c.reason, 'Progress deadline exceeded');
            if (c.status === 'True' && c.reason === 'NewReplicaSetAvailable')
                progressing = true;
        }
        else if (c.type === 'Available' && c.status === 'True') {
            available = true;
        }
    }
    const spec = intField(obj, ['spec', 'replicas'], 1);
    const replicas = intField(obj, ['status', 'replicas'], 0);
    const updated = intField(obj, ['status', 'updatedReplicas'], 0);
    const ready = intField(obj, ['status', 'readyReplicas'], 0);
    const availableReplicas = intField(obj, ['status', 'availableReplicas'], 0);
    if (spec > replicas)
        return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
    if (spec > updated)
        return inProgress('LessUpdated', `Updated: ${updated}/${spec}`);
    if (replicas > spec)
        return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
    if (updated > availableReplicas) {
        return inProgress('LessAvailable', `Available: ${availableReplicas}/${updated}`);
    }
    if (spec > ready)
        return inProgress('LessReady', `Ready: ${ready}/${spec}`);
    if (!progressing)
        return inProgress('ReplicaSetNotAvailable', 'ReplicaSet not Available');
    if (!available)
        return inProgress('DeploymentNotAvailable', 'Deployment not Available');
    return current(`Deployment is available. Replicas: ${replicas}`);
};

;// CONCATENATED MODULE: ./src/status/kinds/job.ts

/**
 * batch/Job, cli-utils `jobConditions`: `Complete=True` is Current, `Failed=True` is Failed, and a Job that
 * has not started is InProgress. A started Job is Current in kpt; with `waitForJobs` (kapp's rule) it stays
 * InProgress until it completes, so a run can wait for a migration.
 *
 * Where we differ from kpt 1.0.0-beta.56: a suspended Job (`spec.suspend` and `Suspended=True`) is Current
 * ("Job is suspended"), the rule of newer cli-utils (after v0.37.2, the version kpt pins). Under kpt's
 * version a suspended Job that never started has no `status.startTime`, so it stays InProgress and the
 * wait runs into its timeout although nothing will happen until someone resumes the Job; a suspended Job
 * is a deliberate state, so we count it as reconciled, as cli-utils now does.
 */
const jobStatus = (obj, options) => {
    const parallelism = intField(obj, ['spec', 'parallelism'], 1);
    const completions = intField(obj, ['spec', 'completions'], parallelism);
    const succeeded = intField(obj, ['status', 'succeeded'], 0);
    const active = intField(obj, ['status', 'active'], 0);
    const failedPods = intField(obj, ['status', 'failed'], 0);
    const startTime = stringField(obj, ['status', 'startTime'], '');
    const suspend = boolField(obj, ['spec', 'suspend'], false);
    for (const c of readConditions(obj)) {
        if (c.status !== 'True')
            continue;
        if (c.type === 'Complete')
            return current(`Job Completed. succeeded: ${succeeded}/${completions}`);
        if (c.type === 'Failed')
            return fields_failed('JobFailed', `Job Failed. failed: ${failedPods}/${completions}`);
        if (c.type === 'Suspended' && suspend)
            return current('Job is suspended');
    }
    if (startTime === '')
        return inProgress('JobNotStarted', 'Job not started');
    const message = `Job in progress. success:${succeeded}, active: ${active}, failed: ${failedPods}`;
    return options.waitForJobs ? inProgress('JobNotComplete', message) : current(message);
};

;// CONCATENATED MODULE: ./src/status/kinds/pdb.ts

/**
 * policy/PodDisruptionBudget, cli-utils `pdbConditions`: once the generic observedGeneration check has
 * passed, the disruption controller has computed the allowed disruptions; it sets no failure condition.
 */
const pdbStatus = () => current('AllowedDisruptions has been computed.');

;// CONCATENATED MODULE: ./src/status/kinds/pod.ts


/** How long a Pod may stay unschedulable before it counts as Failed (cli-utils `ScheduleWindow`). */
const SCHEDULE_WINDOW_MS = 15_000;
/** Names of containers waiting with reason `CrashLoopBackOff`, in status order. */
function crashLoopingContainers(obj) {
    const statuses = (0,kube_object/* getPath */.Yn)(obj, ['status', 'containerStatuses']);
    if (!Array.isArray(statuses))
        return [];
    const names = [];
    for (const cs of statuses) {
        if (!(0,kube_object/* isRecord */.u4)(cs) || typeof cs.name !== 'string')
            continue;
        if ((0,kube_object/* getPath */.Yn)(cs, ['state', 'waiting', 'reason']) === 'CrashLoopBackOff')
            names.push(cs.name);
    }
    return names;
}
/** True while `now` is within the schedule window after the Pod's creation (a missing time is long ago). */
function withinScheduleWindow(obj, now) {
    const created = Date.parse(obj.metadata.creationTimestamp ?? '');
    return !Number.isNaN(created) && now - SCHEDULE_WINDOW_MS < created;
}
/**
 * Pod, cli-utils `podConditions`. A finished Pod is Current even when it failed (it will not change any
 * more); a running Pod needs `Ready=True` and is Failed when a container crash-loops; a Pending Pod that
 * the scheduler rejects is Failed once the 15 s schedule window has passed. An unknown phase is an error.
 */
const podStatus = (obj, options) => {
    const conditions = readConditions(obj);
    const phase = stringField(obj, ['status', 'phase'], '');
    switch (phase) {
        case 'Succeeded':
            return current('Pod has completed successfully');
        case 'Failed':
            return current('Pod has completed, but not successfully');
        case 'Running': {
            if (findCondition(conditions, 'Ready', 'True'))
                return current('Pod is Ready');
            const crashing = crashLoopingContainers(obj);
            if (crashing.length > 0) {
                return fields_failed('ContainerCrashLooping', `Containers in CrashLoop state: ${crashing.join(',')}`);
            }
            return inProgress('PodRunningNotReady', 'Pod is running but is not Ready');
        }
        case 'Pending': {
            const scheduled = findCondition(conditions, 'PodScheduled', 'False');
            if (scheduled?.reason === 'Unschedulable') {
                return withinScheduleWindow(obj, options.now ?? Date.now())
                    ? inProgress('PodNotScheduled', 'Pod has not been scheduled')
                    : fields_failed('PodUnschedulable', 'Pod could not be scheduled');
            }
            return inProgress('PodPending', 'Pod is in the Pending phase');
        }
        case '':
            return inProgress('PodNotObserved', 'Pod phase not available');
        default:
            throw new StatusComputeError(`unknown phase ${phase}`);
    }
};

;// CONCATENATED MODULE: ./src/status/kinds/pvc.ts

/** PersistentVolumeClaim, cli-utils `pvcConditions`: Current only once Bound to a volume. */
const pvcStatus = (obj) => {
    const phase = stringField(obj, ['status', 'phase'], 'unknown');
    if (phase !== 'Bound')
        return inProgress('NotBound', `PVC is not Bound. phase: ${phase}`);
    return current('PVC is Bound');
};

;// CONCATENATED MODULE: ./src/status/kinds/replicaset.ts

/**
 * apps/ReplicaSet (and extensions/ReplicaSet), cli-utils `replicasetConditions`: `ReplicaFailure=True`
 * (pods cannot be created, e.g. quota) keeps it InProgress; otherwise labelled, available and ready
 * counts must reach `spec.replicas` and no extra pods may remain.
 */
const replicaSetStatus = (obj) => {
    if (findCondition(readConditions(obj), 'ReplicaFailure', 'True')) {
        return inProgress('ReplicaFailure', 'Replica Failure condition. Check Pods');
    }
    const spec = intField(obj, ['spec', 'replicas'], 1);
    const replicas = intField(obj, ['status', 'replicas'], 0);
    const ready = intField(obj, ['status', 'readyReplicas'], 0);
    const available = intField(obj, ['status', 'availableReplicas'], 0);
    const labelled = intField(obj, ['status', 'fullyLabeledReplicas'], 0);
    if (spec > labelled)
        return inProgress('LessLabelled', `Labelled: ${labelled}/${spec}`);
    if (spec > available)
        return inProgress('LessAvailable', `Available: ${available}/${spec}`);
    if (spec > ready)
        return inProgress('LessReady', `Ready: ${ready}/${spec}`);
    if (replicas > spec)
        return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
    return current(`ReplicaSet is available. Replicas: ${replicas}`);
};

;// CONCATENATED MODULE: ./src/status/kinds/service.ts

/**
 * Service, cli-utils `serviceConditions`: only a LoadBalancer without a cluster IP waits. kstatus does not
 * wait for the load balancer's ingress (kapp does), so neither do we.
 */
const serviceStatus = (obj) => {
    const type = stringField(obj, ['spec', 'type'], 'ClusterIP');
    const clusterIP = stringField(obj, ['spec', 'clusterIP'], '');
    if (type === 'LoadBalancer' && clusterIP === '') {
        return inProgress('NoIPAssigned', 'ClusterIP not set. Service type: LoadBalancer');
    }
    return current('Service is ready');
};

;// CONCATENATED MODULE: ./src/status/kinds/statefulset.ts

/**
 * apps/StatefulSet, cli-utils `stsConditions`. The controller sets no conditions, so status comes from
 * the counts: an OnDelete StatefulSet is user-managed (Current at once); a partitioned rollout is done
 * when the pods above the partition are updated; otherwise all replicas must be current and the
 * current revision must equal the update revision.
 */
const statefulSetStatus = (obj) => {
    if (stringField(obj, ['spec', 'updateStrategy', 'type'], '') === 'OnDelete') {
        return current('StatefulSet is using the ondelete update strategy');
    }
    const spec = intField(obj, ['spec', 'replicas'], 1);
    const ready = intField(obj, ['status', 'readyReplicas'], 0);
    const currentReplicas = intField(obj, ['status', 'currentReplicas'], 0);
    const updated = intField(obj, ['status', 'updatedReplicas'], 0);
    const replicas = intField(obj, ['status', 'replicas'], 0);
    const partition = intField(obj, ['spec', 'updateStrategy', 'rollingUpdate', 'partition'], -1);
    if (spec > replicas)
        return inProgress('LessReplicas', `Replicas: ${replicas}/${spec}`);
    if (spec > ready)
        return inProgress('LessReady', `Ready: ${ready}/${spec}`);
    if (replicas > spec)
        return inProgress('ExtraPods', `Pending termination: ${replicas - spec}`);
    if (partition !== -1) {
        if (updated < spec - partition) {
            return inProgress('PartitionRollout', `updated: ${updated}/${spec - partition}`);
        }
        return current(`Partition rollout complete. updated: ${updated}`);
    }
    if (spec > currentReplicas)
        return inProgress('LessCurrent', `current: ${currentReplicas}/${spec}`);
    const currentRevision = stringField(obj, ['status', 'currentRevision'], '');
    const updateRevision = stringField(obj, ['status', 'updateRevision'], '');
    if (currentRevision !== updateRevision) {
        return inProgress('RevisionMismatch', 'Waiting for updated revision to match current');
    }
    return current(`All replicas scheduled as expected. Replicas: ${replicas}`);
};

;// CONCATENATED MODULE: ./src/status/compute-status.ts















/** cli-utils `legacyTypes`: the built-in kinds with rules of their own, keyed `group/Kind` (core: `Kind`). */
const kindRules = new Map([
    ['Service', serviceStatus],
    ['Pod', podStatus],
    ['Secret', alwaysReadyStatus],
    ['ConfigMap', alwaysReadyStatus],
    ['PersistentVolumeClaim', pvcStatus],
    ['apps/StatefulSet', statefulSetStatus],
    ['apps/DaemonSet', daemonSetStatus],
    ['extensions/DaemonSet', daemonSetStatus],
    ['apps/Deployment', deploymentStatus],
    ['extensions/Deployment', deploymentStatus],
    ['apps/ReplicaSet', replicaSetStatus],
    ['extensions/ReplicaSet', replicaSetStatus],
    ['policy/PodDisruptionBudget', pdbStatus],
    ['batch/CronJob', alwaysReadyStatus],
    ['batch/Job', jobStatus],
    ['apiextensions.k8s.io/CustomResourceDefinition', crdStatus],
]);
/** The key kstatus files kind rules under: `apps/Deployment`, or just `Pod` for the core group. */
function kindKey(obj) {
    const { group } = (0,kube_object/* splitApiVersion */.Np)(obj.apiVersion);
    return group ? `${group}/${obj.kind}` : obj.kind;
}
/** True when kstatus has a rule for this kind, i.e. its `Ready` condition is never consulted. */
function hasKindRule(obj) {
    return kindRules.has(kindKey(obj));
}
/**
 * An object's reconcile status exactly as `kpt live apply` computes it (cli-utils kstatus `Compute`,
 * plus kpt's Config Connector reader), so a run waits for the same things kpt waits for and prints the
 * same messages. Order: generic rules (deletion, observedGeneration, Reconciling/Stalled), then the
 * kind's rule, then the `Ready` condition, else Current. Fields of the wrong shape give `Unknown` with
 * the reason, as cli-utils' status readers report a compute error. Pure: reads only `obj` and `options`.
 */
function computeStatus(obj, options = {}) {
    try {
        if (isConfigConnector(obj))
            return configConnectorStatus(obj);
        const generic = genericStatus(obj);
        if (generic)
            return generic;
        const rule = kindRules.get(kindKey(obj));
        if (rule)
            return rule(obj, options);
        return readyConditionStatus(obj) ?? { status: 'Current', message: 'Resource is current' };
    }
    catch (err) {
        if (err instanceof StatusComputeError)
            return { status: 'Unknown', message: err.message };
        throw err;
    }
}

;// CONCATENATED MODULE: ./src/status/rollout/current-pods.ts

/** The Deployment controller's revision annotation, on a Deployment and on each of its ReplicaSets. */
const RevisionAnnotation = 'deployment.kubernetes.io/revision';
/** The DaemonSet's template generation (apps/v1 keeps it in an annotation); its pods carry it as a label. */
const DaemonSetTemplateGeneration = 'deprecated.daemonset.template.generation';
const PodTemplateGenerationLabel = 'pod-template-generation';
/** The ControllerRevision a StatefulSet's pod was made from (`status.updateRevision` for the new ones). */
const ControllerRevisionHashLabel = 'controller-revision-hash';
/** The uid of the object's controller (the owner reference with `controller: true`). */
function controllerUid(obj) {
    const refs = obj.metadata.ownerReferences;
    if (!Array.isArray(refs))
        return undefined;
    const ref = refs.find((r) => (0,kube_object/* isRecord */.u4)(r) && r.controller === true);
    return (0,kube_object/* isRecord */.u4)(ref) && typeof ref.uid === 'string' ? ref.uid : undefined;
}
/** True once the controller has seen the latest spec, so the revision it reports is this spec's. */
function observedLatest(obj) {
    const generation = obj.metadata.generation;
    const observed = (0,kube_object/* getPath */.Yn)(obj, ['status', 'observedGeneration']);
    return typeof generation === 'number' && observed === generation;
}
/** Objects by the uid of their controller, so each workload finds its pods without a scan of all. */
function byController(objs) {
    const index = new Map();
    for (const o of objs) {
        const uid = controllerUid(o);
        if (!uid)
            continue;
        const list = index.get(uid);
        if (list)
            list.push(o);
        else
            index.set(uid, [o]);
    }
    return index;
}
/**
 * The pods of the workload's current rollout, or undefined while that is not known yet (the controller has
 * not observed the latest spec, or not yet made the new ReplicaSet). Pods of earlier revisions never count:
 * an old ReplicaSet's crash-looping pods are what a rollout replaces.
 *
 * - Deployment: the pods of its ReplicaSet whose revision annotation is the Deployment's.
 * - StatefulSet: its pods labelled with `status.updateRevision`.
 * - DaemonSet: its pods labelled with the DaemonSet's template generation (the controller's own test for an
 *   updated pod, without reading ControllerRevisions).
 * - Job: all its pods (a Job has one template).
 */
function currentRolloutPods(workload, kind, podsByController, replicaSets) {
    const podsOf = (owner) => (owner ? (podsByController.get(owner) ?? []) : []);
    const uid = workload.metadata.uid;
    if (!uid)
        return undefined;
    if (kind === 'Job')
        return podsOf(uid);
    if (!observedLatest(workload))
        return undefined;
    switch (kind) {
        case 'Deployment': {
            const revision = workload.metadata.annotations?.[RevisionAnnotation];
            if (!revision)
                return undefined;
            const rs = replicaSets.find((r) => controllerUid(r) === uid && r.metadata.annotations?.[RevisionAnnotation] === revision);
            return rs ? podsOf(rs.metadata.uid) : undefined;
        }
        case 'StatefulSet': {
            const revision = (0,kube_object/* getPath */.Yn)(workload, ['status', 'updateRevision']);
            if (typeof revision !== 'string' || !revision)
                return undefined;
            return podsOf(uid).filter((p) => p.metadata.labels?.[ControllerRevisionHashLabel] === revision);
        }
        case 'DaemonSet': {
            const generation = workload.metadata.annotations?.[DaemonSetTemplateGeneration];
            if (!generation)
                return undefined;
            return podsOf(uid).filter((p) => p.metadata.labels?.[PodTemplateGenerationLabel] === generation);
        }
    }
}

;// CONCATENATED MODULE: ./src/status/rollout/label-selector.ts

/**
 * A workload's `spec.selector` as the API's `labelSelector` query (`app=web,tier in (a,b)`), or undefined
 * when it has none or one of a shape the API would not take (then nothing is filtered on it).
 */
function selectorQuery(workload) {
    const selector = (0,kube_object/* getPath */.Yn)(workload, ['spec', 'selector']);
    if (!(0,kube_object/* isRecord */.u4)(selector))
        return undefined;
    const parts = [];
    const labels = selector.matchLabels;
    if ((0,kube_object/* isRecord */.u4)(labels)) {
        for (const key of Object.keys(labels).sort()) {
            const value = labels[key];
            if (typeof value !== 'string')
                return undefined;
            parts.push(`${key}=${value}`);
        }
    }
    const expressions = selector.matchExpressions;
    if (Array.isArray(expressions)) {
        for (const e of expressions) {
            if (!(0,kube_object/* isRecord */.u4)(e) || typeof e.key !== 'string')
                return undefined;
            const values = Array.isArray(e.values) ? e.values.filter((v) => typeof v === 'string').sort() : [];
            switch (e.operator) {
                case 'In':
                    parts.push(`${e.key} in (${values.join(',')})`);
                    break;
                case 'NotIn':
                    parts.push(`${e.key} notin (${values.join(',')})`);
                    break;
                case 'Exists':
                    parts.push(e.key);
                    break;
                case 'DoesNotExist':
                    parts.push(`!${e.key}`);
                    break;
                default:
                    return undefined;
            }
        }
    }
    return parts.length ? parts.join(',') : undefined;
}
/** Past this many values an `in (...)` set makes a long URL that filters little: the namespace is read whole. */
const MAX_SET = 50;
/**
 * One `labelSelector` that every pod of these workloads matches, for a single LIST/WATCH of a namespace:
 * their own selector when they share one; `key in (v1,v2,...)` when every one has a `matchLabels` entry
 * under the same key (`app` in most packages), for up to 50 values; else undefined (the whole namespace). The answer may match
 * other pods too: the caller still picks each workload's pods by owner.
 */
function commonSelector(workloads) {
    const queries = workloads.map(selectorQuery);
    if (queries.length === 0 || queries.some((q) => q === undefined))
        return undefined;
    const distinct = [...new Set(queries)];
    if (distinct.length === 1)
        return distinct[0];
    const labelSets = workloads.map((w) => (0,kube_object/* getPath */.Yn)(w, ['spec', 'selector', 'matchLabels']));
    if (!labelSets.every(kube_object/* isRecord */.u4))
        return undefined;
    const sets = labelSets;
    const shared = Object.keys(sets[0])
        .sort()
        .find((key) => sets.every((s) => typeof s[key] === 'string'));
    if (!shared)
        return undefined;
    const values = [...new Set(sets.map((s) => s[shared]))].sort();
    return values.length <= MAX_SET ? `${shared} in (${values.join(',')})` : undefined;
}

;// CONCATENATED MODULE: ./src/status/rollout/pod-problem.ts


/**
 * What the registry answers when the image or tag does not exist, as the kubelet passes it on: containerd
 * `rpc error: code = NotFound desc = ... docker.io/library/app:1: not found`, CRI-O and Docker `manifest
 * unknown`, a distribution registry's `name unknown` (no such repository). A 429, a timeout or "pull access
 * denied ... may require authorization" (containerd before 1.7 says that for a missing Docker Hub repository,
 * but also for a missing pull secret) say nothing of the kind and get the grace.
 */
const IMAGE_NOT_FOUND = /\bnot found\b|manifest unknown|name unknown|code = NotFound/i;
/** Longest kubelet message kept; the rest is cut (a pull error can carry a whole HTTP response). */
const MAX_MESSAGE = 400;
function pod_problem_clip(text) {
    const one = text.replace(/\s+/g, ' ').trim();
    return one.length > MAX_MESSAGE ? `${one.slice(0, MAX_MESSAGE - 1)}…` : one;
}
function time(value) {
    if (typeof value !== 'string')
        return undefined;
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
}
function pod_problem_str(value) {
    return typeof value === 'string' ? value : '';
}
/** When the kubelet took the pod on (`status.startTime`), else its creation. */
function podStart(pod) {
    return time((0,kube_object/* getPath */.Yn)(pod, ['status', 'startTime'])) ?? time(pod.metadata.creationTimestamp);
}
/** `3 restarts, last exit 1 Error` from a container status. */
function restartDetail(cs) {
    const restarts = typeof cs.restartCount === 'number' ? cs.restartCount : 0;
    let text = `${restarts} restart${restarts === 1 ? '' : 's'}`;
    const last = (0,kube_object/* getPath */.Yn)(cs, ['lastState', 'terminated']);
    if ((0,kube_object/* isRecord */.u4)(last) && typeof last.exitCode === 'number')
        text += `, last exit ${last.exitCode}${last.reason ? ` ${pod_problem_str(last.reason)}` : ''}`;
    return text;
}
/** The kubelet's back-off message names the pod again (`pod=name_ns(uid)`): we already say which. */
function withoutPodSuffix(message, pod) {
    const suffix = ` pod=${pod.metadata.name}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
    return message.endsWith(suffix) ? message.slice(0, -suffix.length) : message;
}
function containerProblem(pod, cs, label, ctx) {
    const waiting = (0,kube_object/* getPath */.Yn)(cs, ['state', 'waiting']);
    if (!(0,kube_object/* isRecord */.u4)(waiting))
        return undefined;
    const reason = pod_problem_str(waiting.reason);
    const message = pod_problem_str(waiting.message);
    const base = { pod: pod.metadata.name, container: `${label} ${pod_problem_str(cs.name)}`, reason };
    const graced = (graceMs) => {
        const since = podStart(pod) ?? ctx.now;
        const fatalAt = since + graceMs;
        const fatal = ctx.now >= fatalAt;
        return fatal
            ? { ...base, detail: `for ${(0,duration/* formatDuration */.a)(ctx.now - since)}`, message: pod_problem_clip(message), fatal }
            : { ...base, message: pod_problem_clip(message), fatal, fatalAt };
    };
    switch (reason) {
        case 'CrashLoopBackOff': {
            const restarts = typeof cs.restartCount === 'number' ? cs.restartCount : 0;
            return {
                ...base,
                detail: restartDetail(cs),
                message: pod_problem_clip(withoutPodSuffix(message, pod)),
                fatal: restarts >= ctx.thresholds.crashLoopRestarts,
            };
        }
        case 'InvalidImageName':
            return { ...base, message: pod_problem_clip(message), fatal: true };
        case 'ErrImagePull':
        case 'ImagePullBackOff':
            return IMAGE_NOT_FOUND.test(message)
                ? { ...base, message: pod_problem_clip(message), fatal: true }
                : graced(ctx.thresholds.imagePullGraceMs);
        case 'CreateContainerConfigError':
            return graced(ctx.thresholds.configErrorGraceMs);
        default:
            return undefined;
    }
}
function unschedulableProblem(pod, ctx) {
    if ((0,kube_object/* getPath */.Yn)(pod, ['status', 'phase']) !== 'Pending')
        return undefined;
    const conditions = (0,kube_object/* getPath */.Yn)(pod, ['status', 'conditions']);
    if (!Array.isArray(conditions))
        return undefined;
    const cond = conditions.find((c) => (0,kube_object/* isRecord */.u4)(c) && c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
    if (!cond)
        return undefined;
    const base = { pod: pod.metadata.name, reason: 'Unschedulable', message: pod_problem_clip(pod_problem_str(cond.message)) };
    const refused = ctx.scaleUpRefused.get(pod.metadata.uid ?? '');
    if (refused !== undefined)
        return { ...base, message: pod_problem_clip(`${pod_problem_str(cond.message)}; cluster-autoscaler: ${refused}`), fatal: true };
    if (ctx.unschedulableGraceMs === undefined)
        return { ...base, fatal: false, awaitsAutoscaler: true };
    const since = time(cond.lastTransitionTime) ?? time(pod.metadata.creationTimestamp) ?? ctx.now;
    const fatalAt = since + ctx.unschedulableGraceMs;
    return ctx.now >= fatalAt
        ? { ...base, detail: `for ${(0,duration/* formatDuration */.a)(ctx.now - since)}`, fatal: true }
        : { ...base, fatal: false, fatalAt, awaitsAutoscaler: true };
}
/**
 * The problems of one pod: each waiting container (init containers first, as the kubelet runs them) whose
 * reason is one fail-fast knows, and the pod itself when the scheduler refuses it. A pod that is being
 * deleted has none (it is on its way out). Reasons not listed here (`ContainerCreating`, `PodInitializing`,
 * a running container that is not Ready) are things to wait for.
 */
function podProblems(pod, ctx) {
    if (pod.metadata.deletionTimestamp)
        return [];
    const problems = [];
    const unschedulable = unschedulableProblem(pod, ctx);
    if (unschedulable)
        problems.push(unschedulable);
    for (const [field, label] of [
        ['initContainerStatuses', 'init container'],
        ['containerStatuses', 'container'],
    ]) {
        const statuses = (0,kube_object/* getPath */.Yn)(pod, ['status', field]);
        if (!Array.isArray(statuses))
            continue;
        for (const cs of statuses) {
            if (!(0,kube_object/* isRecord */.u4)(cs))
                continue;
            const p = containerProblem(pod, cs, label, ctx);
            if (p)
                problems.push(p);
        }
    }
    return problems;
}
/** `web-7f9c-x2 container c CrashLoopBackOff (3 restarts, last exit 1 Error): back-off 40s ...`. */
function describeProblem(p) {
    const where = p.container ? `${p.pod} ${p.container}` : p.pod;
    const head = `${where} ${p.reason}${p.detail ? ` (${p.detail})` : ''}`;
    return p.message ? `${head}: ${p.message}` : head;
}

;// CONCATENATED MODULE: ./src/status/rollout/thresholds.ts


const DefaultFailFastThresholds = {
    crashLoopRestarts: 3,
    imagePullGraceMs: 120_000,
    configErrorGraceMs: 120_000,
    unschedulableGraceMs: 600_000,
};
/** The workload kind of `obj` (apps/v1 Deployment, StatefulSet, DaemonSet; batch Job), else undefined. */
function workloadKind(obj) {
    const { group } = (0,kube_object/* splitApiVersion */.Np)(obj.apiVersion);
    if (group === 'apps' &&
        (obj.kind === 'Deployment' || obj.kind === 'StatefulSet' || obj.kind === 'DaemonSet'))
        return obj.kind;
    if (group === 'batch' && obj.kind === 'Job')
        return 'Job';
    return undefined;
}
/** True when the object opts out with `kpt-live-action.dev/fail-fast: "false"` (then kpt's wait applies). */
function failFastOptedOut(obj) {
    return obj.metadata.annotations?.[constants/* Annotations */.rB.FailFast]?.trim().toLowerCase() === 'false';
}

;// CONCATENATED MODULE: ./src/status/rollout/rollout-verdict.ts




/** First the fatal problems, then the others, each in pod-name order (one message names one pod). */
function worstFirst(problems) {
    return [...problems].sort((a, b) => Number(b.fatal) - Number(a.fatal) || a.pod.localeCompare(b.pod));
}
/** A failed pod of a Job: the container that ended it (`container main exited 1 Error: ...`). */
function failedJobPod(pods) {
    const failed = pods
        .filter((p) => (0,kube_object/* getPath */.Yn)(p, ['status', 'phase']) === 'Failed')
        .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    for (const pod of failed) {
        const statuses = (0,kube_object/* getPath */.Yn)(pod, ['status', 'containerStatuses']);
        for (const cs of Array.isArray(statuses) ? statuses : []) {
            const t = (0,kube_object/* getPath */.Yn)(cs, ['state', 'terminated']);
            if (!(0,kube_object/* isRecord */.u4)(cs) || !(0,kube_object/* isRecord */.u4)(t) || t.exitCode === 0)
                continue;
            const reason = typeof t.reason === 'string' && t.reason ? ` ${t.reason}` : '';
            const message = typeof t.message === 'string' && t.message ? `: ${t.message.trim()}` : '';
            return `${pod.metadata.name} container ${String(cs.name)} exited ${String(t.exitCode)}${reason}${message}`;
        }
        const reason = (0,kube_object/* getPath */.Yn)(pod, ['status', 'reason']);
        if (typeof reason === 'string' && reason) {
            const message = (0,kube_object/* getPath */.Yn)(pod, ['status', 'message']);
            return `${pod.metadata.name} ${reason}${typeof message === 'string' && message ? `: ${message}` : ''}`;
        }
    }
    return undefined;
}
/** A Failed Job (its controller gave up) with why: the `Failed` condition's reason and one failed pod. */
function jobFailure(job, kstatus, pods) {
    const conditions = (0,kube_object/* getPath */.Yn)(job, ['status', 'conditions']);
    const cond = (Array.isArray(conditions) ? conditions : []).find((c) => (0,kube_object/* isRecord */.u4)(c) && c.type === 'Failed' && c.status === 'True');
    const parts = [];
    if (cond && (cond.reason || cond.message))
        parts.push([cond.reason, cond.message].filter((x) => typeof x === 'string' && x).join(': '));
    const pod = failedJobPod(pods.filter((p) => p.metadata.uid && !p.metadata.deletionTimestamp));
    if (pod)
        parts.push(`pod ${pod}`);
    return parts.length ? { ...kstatus, message: `${kstatus.message}: ${parts.join('; ')}` } : kstatus;
}
/**
 * Fail-fast, beyond kstatus: a workload whose current rollout's pods cannot succeed is Failed as soon as that
 * is known, naming one pod, its container and the kubelet's reason, instead of InProgress until the reconcile
 * timeout. Deployments, StatefulSets and DaemonSets that kstatus calls InProgress are judged by the problems
 * of their new pods (`podProblems`: crash loops past the restart threshold, a missing or invalid image, and
 * after a grace a failing pull, a missing Secret, an unschedulable pod). A Deployment kstatus already failed
 * for its progress deadline, and a Job with `waitForJobs` its controller failed, keep that verdict with the
 * cause added. Anything else, an object that opts out (`kpt-live-action.dev/fail-fast: "false"`), and a
 * rollout whose pods are not known yet keep kstatus' result. Pure: reads only its arguments.
 */
function rolloutVerdict(workload, kstatus, snapshot, options) {
    const kind = workloadKind(workload);
    if (!kind || failFastOptedOut(workload))
        return { result: kstatus };
    const pods = currentRolloutPods(workload, kind, snapshot.podsByController ?? byController(snapshot.pods), snapshot.replicaSets);
    if (!pods)
        return { result: kstatus };
    if (kind === 'Job') {
        const failed = options.waitForJobs && kstatus.status === 'Failed' && kstatus.reason === 'JobFailed';
        return { result: failed ? jobFailure(workload, kstatus, pods) : kstatus };
    }
    const deadlinePassed = kstatus.status === 'Failed' && kstatus.reason === 'ProgressDeadlineExceeded';
    if (kstatus.status !== 'InProgress' && !deadlinePassed)
        return { result: kstatus };
    const thresholds = { ...DefaultFailFastThresholds, ...options.thresholds };
    const problems = worstFirst(pods.flatMap((pod) => podProblems(pod, {
        now: options.now,
        thresholds,
        // a Deployment's own progress deadline decides for its unschedulable pods
        unschedulableGraceMs: kind === 'Deployment' ? undefined : thresholds.unschedulableGraceMs,
        scaleUpRefused: snapshot.scaleUpRefused,
    })));
    const first = problems[0];
    if (deadlinePassed) {
        return first
            ? { result: { ...kstatus, message: `${kstatus.message}; new pods fail: ${describeProblem(first)}` } }
            : { result: kstatus };
    }
    if (first?.fatal) {
        return {
            result: { status: 'Failed', reason: first.reason, message: `new pods fail: ${describeProblem(first)}` },
        };
    }
    const times = problems.flatMap((p) => (p.fatalAt === undefined ? [] : [p.fatalAt]));
    return {
        result: kstatus,
        recheckAt: times.length ? Math.min(...times) : undefined,
        awaitsAutoscaler: problems.some((p) => p.awaitsAutoscaler) || undefined,
    };
}

;// CONCATENATED MODULE: ./src/status/rollout/selector-feed.ts

/**
 * The objects of one kind in one namespace that a selector picks, kept current by one LIST and one WATCH
 * (re-listed when the watch ends or drops, with a growing pause after failures). Cheap enough to run
 * during one wave: it is stopped when the wave ends.
 */
class SelectorFeed {
    client;
    info;
    namespace;
    selector;
    onChange;
    items = new Map();
    handle;
    timer;
    stopped = false;
    failures = 0;
    state = 'syncing';
    constructor(client, info, namespace, selector, onChange) {
        this.client = client;
        this.info = info;
        this.namespace = namespace;
        this.selector = selector;
        this.onChange = onChange;
        void this.listAndWatch();
    }
    /** The objects, once listed; undefined while syncing or when forbidden. */
    objects() {
        return this.state === 'synced' ? [...this.items.values()] : undefined;
    }
    stop() {
        this.stopped = true;
        this.handle?.stop();
        if (this.timer)
            clearTimeout(this.timer);
    }
    keyOf(obj) {
        return obj.metadata.uid ?? obj.metadata.name;
    }
    forbid() {
        this.state = 'forbidden';
        this.items.clear();
        this.onChange();
    }
    again(delay) {
        if (this.stopped)
            return;
        this.timer = setTimeout(() => void this.listAndWatch(), delay);
    }
    async listAndWatch() {
        if (this.stopped)
            return;
        try {
            const list = await this.client.list(this.info, this.namespace, this.selector);
            if (this.stopped)
                return;
            this.failures = 0;
            this.items.clear();
            for (const item of list.items)
                this.items.set(this.keyOf(item), item);
            this.state = 'synced';
            this.onChange();
            const handle = await this.client.watch(this.info, this.namespace, list.resourceVersion, (ev) => {
                // an ERROR event (410 Expired, ...) is followed by the server closing the stream: we re-list then
                if (this.stopped || ev.type === 'BOOKMARK' || ev.type === 'ERROR')
                    return;
                const obj = ev.object;
                if (ev.type === 'DELETED')
                    this.items.delete(this.keyOf(obj));
                else
                    this.items.set(this.keyOf(obj), obj);
                this.onChange();
            }, (err) => {
                if (this.stopped)
                    return;
                if (err instanceof api_error/* KubeApiError */.W3 && err.forbidden)
                    return this.forbid();
                this.again(err ? this.pause() : 100);
            }, this.selector);
            if (this.stopped)
                handle.stop();
            else
                this.handle = handle;
        }
        catch (err) {
            if (this.stopped)
                return;
            if (err instanceof api_error/* KubeApiError */.W3 && err.forbidden)
                return this.forbid();
            this.again(this.pause());
        }
    }
    /** 100 ms, doubling to 5 s over consecutive failures. */
    pause() {
        return Math.min(5000, 100 * 2 ** Math.min(this.failures++, 6));
    }
}

;// CONCATENATED MODULE: ./src/status/rollout/rollout-watch.ts





const memories = new WeakMap();
/**
 * Fail-fast for one wave: reads the pods of the wave's workloads that kstatus calls InProgress (one LIST and
 * WATCH of pods per namespace with one label selector, ReplicaSets likewise when a Deployment waits, and
 * the cluster-autoscaler's `NotTriggerScaleUp` events once a new pod is unschedulable), and turns a
 * workload Failed when `rolloutVerdict` says its new pods cannot succeed. Nothing is listed for a wave whose
 * workloads are Current at once. Without permission to list pods (or ReplicaSets) in a namespace, its
 * workloads are waited for as kpt does, with one notice. `stop()` ends every feed and timer.
 */
class RolloutWatch {
    client;
    hooks;
    options;
    namespaces = new Map();
    keysByNamespace = new Map();
    timers = new Map();
    pending = new Set();
    flush;
    memory;
    stopped = false;
    constructor(client, hooks, options = {}) {
        this.client = client;
        this.hooks = hooks;
        this.options = options;
        let memory = memories.get(hooks.run);
        if (!memory) {
            memory = { noticed: new Set(), forbidden: new Set() };
            memories.set(hooks.run, memory);
        }
        this.memory = memory;
    }
    /** kstatus' result for a wait target, or fail-fast's verdict on it (see rolloutVerdict). */
    judge(key, obj, kstatus) {
        const kind = this.eligible(obj);
        if (this.stopped || !kind)
            return kstatus;
        const relevant = kstatus.status === 'InProgress' ||
            (kstatus.status === 'Failed' &&
                (kstatus.reason === 'ProgressDeadlineExceeded' || kstatus.reason === 'JobFailed'));
        if (!relevant)
            return kstatus;
        const namespace = obj.metadata.namespace ?? '';
        const keys = this.keysByNamespace.get(namespace) ?? new Set();
        this.keysByNamespace.set(namespace, keys.add(key));
        const snapshot = this.snapshot(namespace, kind);
        if (!snapshot)
            return kstatus;
        const now = this.options.now?.() ?? Date.now();
        const verdict = rolloutVerdict(obj, kstatus, snapshot, {
            now,
            thresholds: this.options.thresholds,
            waitForJobs: this.options.waitForJobs,
        });
        if (verdict.awaitsAutoscaler)
            this.watchAutoscaler(namespace);
        if (verdict.recheckAt !== undefined)
            this.recheck(key, verdict.recheckAt - now);
        return verdict.result;
    }
    /** The workload kind fail-fast judges this object as, or undefined (not a workload, opted out, a Job without wait-for-jobs). */
    eligible(obj) {
        const kind = workloadKind(obj);
        if (!kind || failFastOptedOut(obj) || (kind === 'Job' && !this.options.waitForJobs))
            return undefined;
        return kind;
    }
    stop() {
        this.stopped = true;
        for (const feeds of this.namespaces.values()) {
            feeds.pods?.stop();
            feeds.replicaSets?.stop();
            feeds.events?.stop();
        }
        for (const { timer } of this.timers.values())
            clearTimeout(timer);
        this.timers.clear();
        if (this.flush)
            clearImmediate(this.flush);
    }
    /** What the feeds show of the namespace; undefined until they have listed (or when they may not). */
    snapshot(namespace, kind) {
        const feeds = this.feedsFor(namespace);
        const pods = feeds.pods?.objects();
        if (!pods)
            return undefined;
        // ReplicaSets only once pods could be listed: a namespace that refuses pods needs none, and says so once
        if (kind === 'Deployment' && !feeds.startedReplicaSets) {
            feeds.startedReplicaSets = true;
            void this.startFeed(namespace, 'apps/v1', 'ReplicaSet', 'replicasets', (f) => {
                feeds.replicaSets = f;
            });
        }
        const replicaSets = feeds.replicaSets?.objects();
        if (kind === 'Deployment' && !replicaSets)
            return undefined;
        if (feeds.snapshot)
            return feeds.snapshot;
        const scaleUpRefused = new Map();
        for (const ev of feeds.events?.objects() ?? []) {
            const uid = ev.involvedObject?.uid;
            if (typeof uid === 'string' && typeof ev.message === 'string')
                scaleUpRefused.set(uid, ev.message);
        }
        feeds.snapshot = {
            pods,
            replicaSets: replicaSets ?? [],
            scaleUpRefused,
            podsByController: byController(pods),
        };
        return feeds.snapshot;
    }
    feedsFor(namespace) {
        let feeds = this.namespaces.get(namespace);
        if (feeds)
            return feeds;
        feeds = { startedReplicaSets: false, startedEvents: false };
        this.namespaces.set(namespace, feeds);
        const target = feeds;
        void this.startFeed(namespace, 'v1', 'Pod', 'pods', (f) => {
            target.pods = f;
        });
        return feeds;
    }
    watchAutoscaler(namespace) {
        const feeds = this.feedsFor(namespace);
        if (feeds.startedEvents)
            return;
        feeds.startedEvents = true;
        // a cluster without an autoscaler has no such events; one that may not list events waits for the deadline
        void this.startFeed(namespace, 'v1', 'Event', 'events', (f) => {
            feeds.events = f;
        }, { fieldSelector: 'reason=NotTriggerScaleUp', quiet: true });
    }
    async startFeed(namespace, apiVersion, kind, resource, keep, extra = {}) {
        const forbiddenKey = `${namespace}/${resource}`;
        if (this.memory.forbidden.has(forbiddenKey))
            return;
        let info;
        try {
            info = await this.client.resolve(apiVersion, kind);
        }
        catch {
            info = undefined;
        }
        if (!info || this.stopped)
            return;
        // the selector that covers every workload of the wave in this namespace (events are picked by reason)
        const workloads = this.hooks.workloadsIn(namespace).filter((w) => this.eligible(w));
        const labelSelector = extra.fieldSelector
            ? undefined
            : commonSelector(kind === 'Pod' ? workloads : workloads.filter((w) => workloadKind(w) === 'Deployment'));
        const feed = new SelectorFeed(this.client, info, namespace, { labelSelector, fieldSelector: extra.fieldSelector }, () => {
            if (feed.state === 'forbidden' && !this.memory.forbidden.has(forbiddenKey)) {
                this.memory.forbidden.add(forbiddenKey);
                if (!extra.quiet)
                    this.notice(namespace, resource);
            }
            this.changed(namespace);
        });
        keep(feed);
    }
    notice(namespace, resource) {
        if (this.memory.noticed.has(namespace))
            return;
        this.memory.noticed.add(namespace);
        this.hooks.onNotice?.(`fail-fast is off in namespace ${namespace}: the credentials may not list and watch ${resource} there, ` +
            'so rollouts there are waited for as kpt does (until Current, the progress deadline or the timeout)');
    }
    /** Feeds of a namespace changed: judge its targets again, once per burst of watch events. */
    changed(namespace) {
        if (this.stopped)
            return;
        const feeds = this.namespaces.get(namespace);
        if (feeds)
            feeds.snapshot = undefined;
        this.pending.add(namespace);
        this.flush ??= setImmediate(() => {
            this.flush = undefined;
            const keys = [...this.pending].flatMap((ns) => [...(this.keysByNamespace.get(ns) ?? [])]);
            this.pending.clear();
            if (!this.stopped && keys.length)
                this.hooks.reevaluate(keys);
        });
    }
    recheck(key, inMs) {
        const at = Date.now() + Math.max(0, inMs);
        const existing = this.timers.get(key);
        if (existing && existing.at <= at)
            return;
        if (existing)
            clearTimeout(existing.timer);
        const timer = setTimeout(() => {
            this.timers.delete(key);
            if (!this.stopped)
                this.hooks.reevaluate([key]);
        }, Math.max(0, inMs) + 5);
        this.timers.set(key, { at, timer });
    }
}

;// CONCATENATED MODULE: ./src/status/wait-for-controller.ts

const AWAITING_CONTROLLER_MESSAGE = 'waiting for its controller';
/** No `status`, `status: null` or `status: {}`. */
function hasNoStatus(obj) {
    const status = obj.status;
    return status === undefined || status === null || ((0,kube_object/* isRecord */.u4)(status) && Object.keys(status).length === 0);
}
/**
 * The opt-in `wait-for-controller` rule, beyond kstatus: a custom resource without a status is Current in
 * kstatus the moment it is created, before its controller has looked at it. During the grace period an
 * object that this run created or changed, whose CRD has a status subresource and that has no status yet
 * is InProgress instead. Undefined when the rule does not hold back the object (then use computeStatus);
 * an object being deleted is never held back.
 */
function awaitingController(obj, ctx) {
    if (ctx.graceMs <= 0 || ctx.elapsedMs >= ctx.graceMs)
        return undefined;
    if (!ctx.touchedByRun || !ctx.hasStatusSubresource)
        return undefined;
    if (obj.metadata.deletionTimestamp)
        return undefined;
    if (!hasNoStatus(obj))
        return undefined;
    return { status: 'InProgress', message: AWAITING_CONTROLLER_MESSAGE, reason: 'AwaitingController' };
}

;// CONCATENATED MODULE: ./src/status/wait-for-objects.ts




/** True when the watcher's copy predates the generation the apply returned (the cache lags the write). */
function olderThanApplied(target, obj) {
    const gen = obj.metadata.generation;
    return target.appliedGeneration !== undefined && typeof gen === 'number' && gen < target.appliedGeneration;
}
/** The status of one observation with respect to a target, before the condition is checked. */
function observe(target, obj, opts, elapsedMs) {
    if (obj === undefined)
        return { status: 'Unknown', message: 'resource not cached' };
    if (obj === null)
        return { status: 'NotFound', message: 'Resource not found' };
    if (opts.condition === 'Current') {
        if (target.uid && obj.metadata.uid && obj.metadata.uid !== target.uid) {
            return { status: 'Failed', message: `object was replaced (UID changed from ${target.uid})` };
        }
        if (olderThanApplied(target, obj)) {
            return {
                status: 'InProgress',
                message: `waiting for generation ${target.appliedGeneration} to be observed`,
            };
        }
        const held = awaitingController(obj, {
            hasStatusSubresource: !!target.hasStatusSubresource,
            touchedByRun: !!target.touchedByRun,
            elapsedMs,
            graceMs: opts.controllerGraceMs ?? 0,
        });
        if (held)
            return held;
    }
    else if (target.uid && obj.metadata.uid && obj.metadata.uid !== target.uid) {
        return { status: 'NotFound', message: 'Resource not found (a new object has the name)' };
    }
    return computeStatus(obj, opts.status);
}
/**
 * Waits until every target meets the condition (Current, or NotFound for deletes). A target that turns
 * Failed stops blocking and is reported Failed; what is left when the timeout passes is reported Timeout.
 * With `status.failFast`, workloads whose new pods cannot succeed turn Failed too (RolloutWatch), from pod
 * feeds that live as long as this wait.
 */
async function waitForObjects(watcher, targets, opts) {
    const start = Date.now();
    const outcomes = new Map();
    const last = new Map();
    const byKey = new Map(targets.map((t) => [(0,object_id/* idKey */.T4)(t.ref), t]));
    if (targets.length === 0)
        return [];
    return new Promise((resolve) => {
        const timers = [];
        let done = false;
        let initial = true;
        const rollouts = opts.status?.failFast && opts.condition === 'Current'
            ? new RolloutWatch(watcher.client, {
                workloadsIn: (namespace) => targets.flatMap((t) => {
                    const obj = t.ref.namespace === namespace ? watcher.get(t.ref) : undefined;
                    return obj ? [obj] : [];
                }),
                reevaluate: (keys) => {
                    for (const key of keys)
                        evaluate(key);
                },
                onNotice: opts.onNotice,
                run: watcher,
            }, {
                waitForJobs: opts.status.waitForJobs,
                thresholds: opts.status.failFastThresholds,
            })
            : undefined;
        const finish = () => {
            if (done)
                return;
            done = true;
            rollouts?.stop();
            unsubscribe();
            for (const t of timers)
                clearTimeout(t);
            clearInterval(progress);
            opts.signal?.removeEventListener('abort', onAbort);
            resolve(targets.map((t) => outcomes.get((0,object_id/* idKey */.T4)(t.ref))));
        };
        const evaluate = (key) => {
            const target = byKey.get(key);
            if (!target || outcomes.has(key) || done)
                return;
            const obj = watcher.get(target.ref);
            let result = observe(target, obj, opts, Date.now() - start);
            // never judge the pods of a cached object older than our write: they are the previous rollout's
            if (rollouts && obj && !olderThanApplied(target, obj))
                result = rollouts.judge(key, obj, result);
            const prev = last.get(key);
            if (!prev || prev.status !== result.status || prev.message !== result.message) {
                last.set(key, result);
                opts.onStatus?.(target.ref, result);
            }
            const met = opts.condition === 'Current' ? result.status === 'Current' : result.status === 'NotFound';
            let outcome;
            if (met)
                outcome = { ref: target.ref, status: 'Successful', last: result };
            else if (result.status === 'Failed' && opts.condition === 'Current')
                outcome = { ref: target.ref, status: 'Failed', last: result };
            if (outcome) {
                outcomes.set(key, outcome);
                opts.onOutcome?.(outcome);
            }
            else if (initial) {
                opts.onPending?.(target.ref);
            }
            if (outcomes.size === targets.length)
                finish();
        };
        const timeOut = () => {
            for (const t of targets) {
                const key = (0,object_id/* idKey */.T4)(t.ref);
                if (!outcomes.has(key)) {
                    const outcome = {
                        ref: t.ref,
                        status: 'Timeout',
                        last: last.get(key) ?? { status: 'Unknown', message: '' },
                    };
                    outcomes.set(key, outcome);
                    opts.onOutcome?.(outcome);
                }
            }
            finish();
        };
        const onAbort = () => timeOut();
        const unsubscribe = watcher.subscribe(evaluate);
        if (opts.timeoutMs > 0)
            timers.push(setTimeout(timeOut, opts.timeoutMs));
        if (opts.controllerGraceMs)
            timers.push(setTimeout(() => {
                for (const k of byKey.keys())
                    evaluate(k);
            }, opts.controllerGraceMs + 5));
        opts.signal?.addEventListener('abort', onAbort, { once: true });
        // cancelled before the wait began: do not wait at all
        if (opts.signal?.aborted)
            onAbort();
        const progress = setInterval(() => {
            const pending = targets
                .filter((t) => !outcomes.has((0,object_id/* idKey */.T4)(t.ref)))
                .map((t) => {
                const r = last.get((0,object_id/* idKey */.T4)(t.ref)) ?? { status: 'Unknown', message: 'no status yet' };
                return { ref: t.ref, status: r.status, message: r.message };
            });
            if (pending.length)
                opts.onProgress?.(pending, Date.now() - start);
        }, opts.progressEveryMs ?? 10_000);
        progress.unref();
        for (const key of byKey.keys())
            evaluate(key);
        initial = false;
    });
}

;// CONCATENATED MODULE: ./src/apply/wait-wave.ts






/**
 * Waits for a wave: applied objects until Current (or Failed), deleted ones until gone. Objects that were
 * not actuated, or opted out of waiting, are reported `reconcile skipped`, as kpt does.
 */
async function waitWave(state, ids, group, condition, onProgress) {
    const targets = [];
    const timeoutMs = condition === 'Current' ? state.options.reconcileTimeoutMs : state.options.pruneTimeoutMs;
    const waitOptions = {
        condition,
        timeoutMs,
        status: { waitForJobs: state.options.waitForJobs, failFast: state.options.failFast },
        controllerGraceMs: state.options.waitForControllerMs,
    };
    const onOutcome = (r) => {
        const o = outcomeFor(state, r.ref);
        o.reconcile = r.status;
        o.status = r.last.status;
        if (r.status === 'Successful') {
            o.readyAfterMs = Date.now() - state.startedAt;
            if (condition === 'Current')
                o.message = r.last.message;
        }
        else {
            o.message =
                r.status === 'Timeout'
                    ? `timed out after ${(0,duration/* formatDuration */.a)(timeoutMs)} waiting for ${condition}: ${r.last.status}${r.last.message ? `: ${r.last.message}` : ''}`
                    : `${r.last.status}: ${r.last.message}`;
            markBlocked(state, r.ref, r.status === 'Failed' ? 'apply reconcile failed' : 'apply reconcile timeout');
        }
        state.emit({
            type: 'wait',
            group,
            id: r.ref,
            status: r.status,
            message: r.status === 'Successful' ? undefined : o.message,
        });
    };
    for (const id of ids) {
        const key = (0,object_id/* idKey */.T4)(id);
        const actuated = condition === 'Current' ? state.applied.has(key) : state.deleted.has(key);
        const o = outcomeFor(state, id);
        if (!actuated || !state.options.wait || (condition === 'Current' && waitDisabled(state, id))) {
            o.reconcile = 'Skipped';
            if (condition === 'Current' && actuated) {
                o.message ??= state.options.wait
                    ? 'wait disabled by kapp.k14s.io/disable-wait'
                    : 'not waited for (wait: false)';
            }
            state.emit({ type: 'wait', group, id, status: 'Skipped' });
            continue;
        }
        const applied = state.applied.get(key);
        const liveUid = state.live.get(key)?.metadata.uid;
        const target = {
            ref: { ...id, apiVersion: state.manifests.get(key)?.apiVersion },
            appliedGeneration: condition === 'Current' ? applied?.generation : undefined,
            uid: condition === 'Current' ? applied?.uid : liveUid,
            hasStatusSubresource: applied?.hasStatus,
            touchedByRun: applied?.touched,
        };
        // what the write itself answered settles it when that already meets the condition (a Role or a
        // ConfigMap is Current as applied; a DELETE answered Success is gone): no watch for those
        const known = condition === 'Current' ? applied?.object : state.gone.has(key) ? null : undefined;
        const first = known === undefined ? undefined : observe(target, known, waitOptions, 0);
        if (first && first.status === condition) {
            state.emit({ type: 'status', id: target.ref, status: first.status, message: first.message });
            onOutcome({ ref: target.ref, status: 'Successful', last: first });
            continue;
        }
        targets.push(target);
    }
    if (targets.length === 0)
        return;
    state.watcher ??= new ObjectWatcher(state.client);
    // objects on a feed this wave started were listed after the writes: only the others need a fresh GET
    const stale = await state.watcher.track(targets.map((t) => t.ref));
    await state.watcher.refresh(stale);
    await waitForObjects(state.watcher, targets, {
        ...waitOptions,
        signal: state.signal,
        onStatus: (ref, r) => state.emit({ type: 'status', id: ref, status: r.status, message: r.message }),
        onPending: (ref) => state.emit({ type: 'wait', group, id: ref, status: 'Pending' }),
        onOutcome,
        onNotice: (message) => onProgress?.(`note: ${message}`),
        onProgress: (pending, elapsed) => onProgress?.(`waiting ${(0,duration/* formatDuration */.a)(elapsed)} for ${pending.length} object(s): ` +
            pending
                .slice(0, 10)
                .map((p) => `${(0,object_id/* shortName */.EU)(p.ref)} ${p.status}${p.message ? ` (${p.message})` : ''}`)
                .join('; ')),
    });
}

;// CONCATENATED MODULE: ./src/apply/applier.ts












/** A fatal problem: reported once as an error event; nothing (more) is changed. */
class FatalRunError extends Error {
}
/**
 * What stops an apply before it walks: plan errors (invalid depends-on, cycles), and an empty package that
 * would prune everything its inventory owns.
 */
function checkApplyInput(req) {
    const { plan } = req.input;
    if (plan.errors.length > 0)
        throw new FatalRunError(formatPlanErrors(plan.errors));
    const pruneCount = plan.pruneWaves.flat().length;
    if (req.input.manifests.size === 0 && pruneCount > 0 && !req.options.allowEmptyPrune) {
        throw new FatalRunError(`the package has no objects: applying it would prune all ${pruneCount} object(s) in inventory ` +
            `${req.inventory.namespace}/${req.inventory.name}. Set allow-empty-prune (--allow-empty-prune) if that is ` +
            'what you want, or use destroy');
    }
}
/**
 * The apply walked as a dry run: each object's decision recorded and emitted as kpt prints a dry run
 * (inventory, apply and prune groups, no waits). Sends only dry-runs and reads; never writes. `ask` says which
 * objects the server is asked about: every one for a preview, the pre-flight's policy for a pre-flight walk
 * (which is silent: `emit` a no-op).
 */
async function applier_dryRunApply(req, ask) {
    const state = stateFor(req, { dryRun: true, ask });
    await walk(state, req);
    return state;
}
/**
 * The apply for real (`kpt live apply --server-side` with kpt's inventory): the pre-flight's decisions
 * carried out, wave by wave: the ResourceGroup CRD when missing, the inventory (old ∪ new) before the first
 * object, apply waves with reconcile waits, prune waves (reverse) with waits, the inventory's final set.
 */
async function carryOutApply(req, preflight) {
    const state = stateFor(req, { dryRun: false, ask: { kind: 'none' }, planned: preflight.decisions });
    try {
        if (!req.rgServed)
            await ensureResourceGroupCrd(req.client, { install: req.options.installResourceGroup });
        await walk(state, req);
        return applyResult(state);
    }
    catch (err) {
        // what got done is in the outcomes so far; the inventory was written before the first object
        return { ...fatalResult(req.emit, err, withDecisions(state), state.startedAt), plan: state.plan };
    }
}
/** The result of a walk that got to its end (or was cancelled and saved its inventory). */
function applyResult(state) {
    const objects = withDecisions(state);
    const result = finishedResult(objects, state.startedAt, state.cancelled(), runFailed(objects, state.options.allowSkipped));
    return { ...result, plan: state.plan, ...(state.dryRun ? { dryRun: true } : {}) };
}
function stateFor(req, o) {
    return newRunState({
        client: req.client,
        options: req.options,
        inventory: req.inventory,
        emit: req.emit,
        signal: req.signal,
        ...req.input,
        ...o,
    }, Date.now());
}
/** kapp's exit-early-on-apply-error: any failed apply or reconcile so far. */
function hasFailure(s) {
    return [...s.outcomes.values()].some((o) => failed(o, { allowSkipped: true }));
}
/**
 * The task list, in order. A dry run writes nothing and waits for nothing (kpt prints no wait tasks for
 * a dry run); a real run writes the inventory around the objects and waits for each wave.
 */
async function walk(s, req) {
    const tasks = taskList(s.plan, { prune: s.options.prune });
    const shown = tasks.tasks.filter((t) => t.action !== 'Inventory' && !(s.dryRun && t.action === 'Wait'));
    s.emit({ type: 'init', groups: shown });
    let stored = await group(s.emit, tasks.first.name, 'Inventory', async () => s.dryRun ? undefined : writeUnion(s, req.cluster));
    for (const [i, { act, wait }] of tasks.applyWaves.entries()) {
        if (s.cancelled() || (s.options.exitEarly && hasFailure(s)))
            break;
        const crds = act.ids.some((id) => id.kind === 'CustomResourceDefinition') && !s.dryRun;
        await group(s.emit, act.name, 'Apply', () => applyWave(s, act.ids, act.name, i));
        if (s.dryRun)
            continue;
        if (crds)
            s.client.resetDiscovery();
        await group(s.emit, wait.name, 'Wait', () => waitWave(s, wait.ids, wait.name, 'Current', req.onProgress));
        if (crds)
            s.client.resetDiscovery();
    }
    if (!(s.options.exitEarly && hasFailure(s))) {
        for (const { act, wait } of tasks.deleteWaves) {
            if (s.cancelled())
                break;
            await group(s.emit, act.name, 'Prune', () => pruneWave(s, act.ids, act.name, 'prune'));
            if (s.dryRun)
                continue;
            await group(s.emit, wait.name, 'Wait', () => waitWave(s, wait.ids, wait.name, 'NotFound', req.onProgress));
        }
    }
    await group(s.emit, tasks.last.name, 'Inventory', async () => {
        if (s.dryRun)
            return;
        stored = await writeResourceGroup(s.client, s.inventory, finalInventory(s), stored, {
            status: s.options.statusPolicy === 'all',
        });
    });
    if (!s.dryRun && req.cluster?.kind === 'ConfigMap')
        await deleteConfigMapInventory(s.client, req.cluster.object);
}
/** The inventory before anything is created: what it held and everything the package adds, so a crash orphans nothing. */
function writeUnion(s, cluster) {
    const union = new Map();
    for (const [k, id] of s.previous)
        union.set(k, {
            id,
            strategy: s.manifests.has(k) ? 'Apply' : 'Delete',
            actuation: 'Pending',
            reconcile: 'Pending',
        });
    for (const [k, m] of s.manifests)
        union.set(k, { id: (0,object_id/* idOf */.TH)(m), strategy: 'Apply', actuation: 'Pending', reconcile: 'Pending' });
    return writeResourceGroup(s.client, s.inventory, [...union.values()], cluster?.kind === 'ResourceGroup' ? cluster.object : undefined, 
    // the entries get their statuses in the final write (kpt also writes `Pending` ones here: one more
    // round trip before the first object, for a status nothing reads mid-run)
    { status: false });
}

;// CONCATENATED MODULE: ./src/inventory/deploy-history.ts

/** The label that ties a history ConfigMap to its inventory (by name; label values are short). */
const HistoryLabel = 'kpt-live-action.dev/history-of';
const cmInfo = async (client) => {
    const info = await client.resolve('v1', 'ConfigMap');
    if (!info)
        throw new Error('the cluster does not serve v1 ConfigMaps');
    return info;
};
/** The key of an inventory in readHistories' answer. */
const inventoryKey = (inv) => `${inv.namespace}/${inv.name}`;
function parseRecord(cm) {
    try {
        const record = JSON.parse((cm.data ?? {}).record ?? '');
        return record && typeof record.startedAt === 'string' ? record : undefined;
    }
    catch {
        return undefined; // not one of our records: left alone
    }
}
/**
 * The records of many inventories, newest first, with one LIST per namespace (a monorepo of hundreds of
 * packages in a few namespaces costs a few requests). An inventory whose namespace could not be listed
 * (no permission) maps to undefined; one with no record, to [].
 */
async function readHistories(client, inventories) {
    const out = new Map();
    const namespaces = [...new Set(inventories.map((i) => i.namespace))];
    const info = await cmInfo(client);
    await Promise.all(namespaces.map(async (ns) => {
        const wanted = inventories.filter((i) => i.namespace === ns);
        let items;
        try {
            items = (await client.list(info, ns, { labelSelector: HistoryLabel })).items;
        }
        catch {
            items = undefined;
        }
        for (const inv of wanted) {
            const records = items
                ?.filter((cm) => cm.metadata.labels?.[HistoryLabel] === inv.name)
                .map(parseRecord)
                .filter((r) => r !== undefined)
                .sort((a, b) => (0,object_id/* compareStrings */.Kt)(b.startedAt, a.startedAt));
            out.set(inventoryKey(inv), records);
        }
    }));
    return out;
}
/** Every record of this inventory, newest first. */
async function readHistory(client, inv) {
    return (await readHistoryEntries(client, inv)).map((e) => e.record);
}
/** Every record of this inventory with its ConfigMap's name and UID, newest first (one LIST). */
async function readHistoryEntries(client, inv) {
    const list = await client.list(await cmInfo(client), inv.namespace, {
        labelSelector: `${HistoryLabel}=${inv.name}`,
    });
    const entries = [];
    for (const cm of list.items) {
        const record = parseRecord(cm);
        if (record)
            entries.push({ record, name: cm.metadata.name, uid: cm.metadata.uid });
    }
    return entries.sort((a, b) => (0,object_id/* compareStrings */.Kt)(b.record.startedAt, a.record.startedAt));
}
/**
 * Stores a record and deletes the oldest ones beyond `keep`. With `previous` (what readHistoryEntries
 * returned before the run) the old records are trimmed from it without listing again; a record another
 * run added meanwhile is trimmed by the next run.
 */
async function writeHistory(client, inv, record, keep, previous) {
    const cm = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
            name: '',
            generateName: `${inv.name.slice(0, 200)}-change-`,
            namespace: inv.namespace,
            labels: { [HistoryLabel]: inv.name },
        },
        data: { record: JSON.stringify(record) },
    };
    delete cm.metadata.name;
    const trim = (old) => Promise.all(old.map((o) => client.delete({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: inv.namespace, name: o.name }, { uid: o.uid })));
    if (previous) {
        // the oldest records known before the run go while the new one is stored
        await Promise.all([
            client.create(cm),
            trim(previous.slice(Math.max(keep, 1) - 1).map((e) => ({ name: e.name, uid: e.uid }))),
        ]);
        return;
    }
    await client.create(cm);
    await trim(await listOld(client, inv, keep));
}
async function listOld(client, inv, keep) {
    const list = await client.list(await cmInfo(client), inv.namespace, {
        labelSelector: `${HistoryLabel}=${inv.name}`,
    });
    const byAge = [...list.items].sort((a, b) => (0,object_id/* compareStrings */.Kt)(recordTime(b), recordTime(a)));
    return byAge.slice(Math.max(keep, 1)).map((cm) => ({ name: cm.metadata.name, uid: cm.metadata.uid }));
}
function recordTime(cm) {
    try {
        return (JSON.parse((cm.data ?? {}).record ?? '{}').startedAt ?? '');
    }
    catch {
        return cm.metadata.creationTimestamp ?? '';
    }
}
/**
 * Deletes every record of this inventory (a destroyed package leaves nothing of ours behind, as kapp
 * deletes an app's change records with the app). Each DELETE carries the record's UID.
 */
async function deleteHistory(client, inv) {
    const list = await client.list(await cmInfo(client), inv.namespace, {
        labelSelector: `${HistoryLabel}=${inv.name}`,
    });
    await Promise.all(list.items.map((cm) => client.delete({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace: inv.namespace, name: cm.metadata.name }, { uid: cm.metadata.uid })));
    return list.items.length;
}

// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./src/inventory/inventory-lock.ts




/** `2026-11-22T16:07:07.123000Z`: the MicroTime format Lease fields need. */
function microTime(d = new Date()) {
    return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
function lockName(inv) {
    return `kpt-live-action.${inv.name}`.slice(0, 253);
}
/**
 * One run at a time per inventory: a `coordination.k8s.io/v1` Lease named after the inventory, in its
 * namespace, held and renewed for the whole run. A second run waits up to `timeoutMs`, then fails naming
 * the holder; a crashed holder's lease expires after `leaseSeconds`.
 */
async function acquireInventoryLock(client, inv, options) {
    const leaseSeconds = options.leaseSeconds ?? 30;
    const holder = `${process.env.GITHUB_RUN_ID ? `run-${process.env.GITHUB_RUN_ID}` : (0,external_node_os_.hostname)()}-${process.pid}-${(0,external_node_crypto_.randomBytes)(3).toString('hex')}`;
    const ref = {
        apiVersion: 'coordination.k8s.io/v1',
        group: 'coordination.k8s.io',
        kind: 'Lease',
        namespace: inv.namespace,
        name: lockName(inv),
    };
    const start = Date.now();
    let waitedFor;
    let lease;
    // the lease is usually absent (every run deletes it): try to create it before reading it
    let firstTry = true;
    for (;;) {
        const existing = firstTry ? undefined : await client.get(ref);
        firstTry = false;
        const spec = (existing?.spec ?? {});
        const renewed = spec.renewTime ? Date.parse(spec.renewTime) : 0;
        const expired = !spec.holderIdentity || renewed + (spec.leaseDurationSeconds ?? leaseSeconds) * 1000 < Date.now();
        try {
            const now = microTime();
            const body = {
                apiVersion: 'coordination.k8s.io/v1',
                kind: 'Lease',
                metadata: {
                    name: ref.name,
                    namespace: ref.namespace,
                    resourceVersion: existing?.metadata.resourceVersion,
                },
                spec: {
                    holderIdentity: holder,
                    leaseDurationSeconds: leaseSeconds,
                    acquireTime: now,
                    renewTime: now,
                },
            };
            if (!existing) {
                delete body.metadata.resourceVersion;
                lease = await client.create(body);
                break;
            }
            if (expired) {
                lease = await client.replace(body);
                break;
            }
        }
        catch (err) {
            if (!(err instanceof api_error/* KubeApiError */.W3 && err.code === 409))
                throw lockError(err, inv);
            continue; // someone else moved first: look again
        }
        if (waitedFor !== spec.holderIdentity) {
            waitedFor = spec.holderIdentity;
            options.onWait?.(spec.holderIdentity ?? '');
        }
        if (Date.now() - start > options.timeoutMs) {
            throw new Error(`inventory ${inv.namespace}/${inv.name} is locked by "${spec.holderIdentity}" (since ${spec.acquireTime}): ` +
                `another run is applying this package; waited ${Math.round((Date.now() - start) / 1000)}s. ` +
                'Re-run when it finishes (its lease expires on its own if that run died).');
        }
        // rejects (AbortError) when the signal aborts: the run stopped waiting
        await (0,external_node_timers_promises_.setTimeout)(options.pollMs ?? 1000, undefined, { signal: options.signal });
    }
    let current = lease;
    // renewals run one at a time, and release waits for one in flight: a DELETE carrying the resourceVersion
    // from before a renewal would fail (409) and leave the lease to block the next run until it expires
    let renewing = Promise.resolve();
    const renew = setInterval(() => {
        renewing = renewing.then(async () => {
            try {
                const spec = { ...current.spec, renewTime: microTime() };
                current = await client.replace({ ...current, spec });
            }
            catch {
                // the next renewal tries again; a lost lease shows up as a 409 on release
            }
        });
    }, (leaseSeconds * 1000) / 3);
    renew.unref();
    return {
        holder,
        async release() {
            clearInterval(renew);
            await renewing;
            try {
                await client.delete(ref, {
                    uid: current.metadata.uid,
                    resourceVersion: current.metadata.resourceVersion,
                });
            }
            catch {
                // someone else holds it now (ours expired): nothing of ours to release
            }
        },
    };
}
function lockError(err, inv) {
    if (err instanceof api_error/* KubeApiError */.W3 && err.forbidden) {
        return new Error(`cannot take the apply lock (a Lease in namespace ${inv.namespace}): these credentials need get/create/update/delete ` +
            `on leases.coordination.k8s.io there. Server said: ${err.message}`);
    }
    return err;
}

;// CONCATENATED MODULE: ./src/apply/inventory-namespace.ts





/** The id of the Namespace an inventory lives in. */
function inventoryNamespaceId(inv) {
    return { group: '', kind: 'Namespace', namespace: '', name: inv.namespace };
}
/**
 * The inventory's own Namespace when destroy may take it: the inventory lists it (the package declared it)
 * and it carries this inventory's owning annotation. Undefined otherwise (it is not ours to delete).
 */
function ownInventoryNamespace(state) {
    const id = inventoryNamespaceId(state.inventory);
    const key = (0,object_id/* idKey */.T4)(id);
    const live = state.live.get(key);
    if (!state.previous.has(key) || !live)
        return undefined;
    return live.metadata.annotations?.[constants/* Annotations */.rB.OwningInventory] === state.inventory.id ? id : undefined;
}
/**
 * What Kubernetes creates in every Namespace by itself (the `kube-root-ca.crt` ConfigMap, the `default`
 * ServiceAccount and, before 1.24, its token Secret; Events), and what this tool keeps next to an
 * inventory (its lock Lease, its deploy history, the ResourceGroup being deleted). None of these stop
 * destroy from deleting the Namespace.
 */
function isHousekeeping(group, kind, obj, inv) {
    const name = obj.metadata.name;
    if (kind === 'Event')
        return true;
    if (group === '' && kind === 'ConfigMap') {
        return name === 'kube-root-ca.crt' || obj.metadata.labels?.[HistoryLabel] === inv.name;
    }
    if (group === '' && kind === 'ServiceAccount')
        return name === 'default';
    if (group === '' && kind === 'Secret') {
        return obj.metadata.annotations?.['kubernetes.io/service-account.name'] === 'default';
    }
    if (group === 'coordination.k8s.io' && kind === 'Lease')
        return name === lockName(inv);
    if (group === 'kpt.dev' && kind === 'ResourceGroup')
        return name === inv.name;
    return false;
}
/**
 * Everything in the inventory's Namespace that is not housekeeping (`ConfigMap/foreign`), listing each
 * namespaced kind once (metadata only). Throws when a kind cannot be listed: then nobody can tell.
 */
async function namespaceLeftovers(state) {
    const ns = state.inventory.namespace;
    const kinds = await state.client.namespacedResources();
    const found = await Promise.all(kinds.map(async (info) => {
        const list = await state.client.list(info, ns, { metadataOnly: true });
        return list.items
            .filter((o) => !isHousekeeping(info.group, info.kind, o, state.inventory))
            .map((o) => `${info.kind}/${o.metadata.name}`);
    }));
    // the same object can be served by two groups (events, for one): each name once
    return [...new Set(found.flat())].sort();
}
/**
 * After destroy deleted the inventory: deletes the inventory's own Namespace when nothing but housekeeping
 * is left in it; otherwise leaves it, forgets it (removes the owning annotation of an inventory that no
 * longer exists) and says what is left. The caller waits for a deleted Namespace to be gone.
 */
async function removeInventoryNamespace(state, id, group) {
    const key = (0,object_id/* idKey */.T4)(id);
    const live = state.live.get(key);
    const o = outcomeFor(state, id);
    const ref = { ...id, apiVersion: 'v1' };
    try {
        let left;
        try {
            left = await namespaceLeftovers(state);
        }
        catch (err) {
            left = [`(could not list everything in it: ${err.message})`];
        }
        if (left.length > 0) {
            const shown = left.length > 10 ? [...left.slice(0, 10), `and ${left.length - 10} more`] : left;
            if (!state.dryRun)
                await state.client.jsonPatch(ref, [
                    {
                        op: 'remove',
                        path: `/metadata/annotations/${constants/* Annotations */.rB.OwningInventory.replaceAll('/', '~1')}`,
                    },
                ]);
            o.action = 'abandoned';
            o.skip = {
                type: 'in-use',
                message: `namespace still in use: it holds objects this package did not create (${shown.join(', ')}); left in place, no longer owned by any inventory`,
            };
            o.message = o.skip.message;
            state.decisions.set(key, { action: 'orphan', validated: true, reason: o.message, skip: o.skip });
            state.emit({ type: 'delete', group, id, status: 'Skipped', error: o.message });
            return;
        }
        state.decisions.set(key, {
            action: 'prune',
            validated: true,
            reason: 'the inventory it held is deleted',
        });
        const res = state.dryRun
            ? 'gone'
            : await state.client.delete(ref, {
                uid: live.metadata.uid,
                propagationPolicy: state.options.prunePropagationPolicy,
            });
        recordDeleted(state, id, res !== 'pending');
        o.action = 'deleted';
        state.emit({ type: 'delete', group, id, status: 'Successful' });
    }
    catch (err) {
        o.action = 'failed';
        o.message = err.message;
        state.emit({ type: 'delete', group, id, status: 'Failed', error: o.message });
    }
}
/** The Namespace stays because the inventory in it does (something was not deleted). */
function keepInventoryNamespace(state, id, group) {
    const o = outcomeFor(state, id);
    o.action = 'skipped';
    o.skip = { type: 'in-use', message: `namespace still in use: ${id.name} holds the inventory` };
    o.message = o.skip.message;
    state.decisions.set((0,object_id/* idKey */.T4)(id), { action: 'skip', validated: true, reason: o.message, skip: o.skip });
    state.emit({ type: 'delete', group, id, status: 'Skipped', error: o.message });
}

;// CONCATENATED MODULE: ./src/apply/destroyer.ts











/**
 * Deletes everything the inventory lists, in reverse dependency waves, waiting for each wave to be gone,
 * through the same prune decision as apply's prune (an `on-remove: keep` object is kept, another
 * inventory's is skipped). The inventory itself is deleted only when every delete succeeded; otherwise it
 * keeps what remains. As a dry run, the same walk decides and reports, and deletes and writes nothing.
 */
async function runDestroy(req) {
    const { cluster, live } = req;
    const previous = new Map(cluster.ids.map((id) => [(0,object_id/* idKey */.T4)(id), id]));
    // the inventory's own Namespace (declared by the package, owned by this inventory) goes last, after
    // the inventory in it, and only when nothing else is left in it
    const ownNs = ownInventoryNamespace({ inventory: req.inventory, previous, live });
    const nsKey = ownNs && (0,object_id/* idKey */.T4)(ownNs);
    const existing = [...previous.keys()].filter((k) => live.get(k) && k !== nsKey).map((k) => live.get(k));
    const plan = buildPlan({ apply: [], prune: existing, destroy: true });
    const s = newRunState({
        client: req.client,
        options: req.options,
        inventory: req.inventory,
        emit: req.emit,
        signal: req.signal,
        dryRun: req.dryRun,
        plan,
        manifests: new Map(),
        sources: new Map(),
        live,
        previous,
    }, Date.now());
    const tasks = taskList(plan, { prune: true });
    // the inventory's own Namespace gets one more delete/wait pair after the inventory (see below)
    const n = tasks.deleteWaves.length;
    const nsTasks = ownNs
        ? [
            { name: taskName.delete(n), action: 'Delete', ids: [ownNs] },
            { name: taskName.wait(n), action: 'Wait', ids: [ownNs] },
        ]
        : [];
    const shown = [...tasks.tasks, ...nsTasks].filter((t) => t.action !== 'Inventory' && !(s.dryRun && t.action === 'Wait'));
    req.emit({ type: 'init', groups: shown });
    for (const { act, wait } of tasks.deleteWaves) {
        if (s.cancelled())
            break;
        await group(req.emit, act.name, 'Delete', () => pruneWave(s, act.ids, act.name, 'delete'));
        if (s.dryRun)
            continue;
        await group(req.emit, wait.name, 'Wait', () => waitWave(s, wait.ids, wait.name, 'NotFound', req.onProgress));
    }
    // the inventory goes when it would list nothing more (objects not deleted, e.g. owned by another
    // inventory, stay in it, as kpt keeps them) and nothing failed
    const remaining = finalInventory(s).filter((e) => (0,object_id/* idKey */.T4)(e.id) !== nsKey);
    const anyFailed = [...s.outcomes.values()].some((o) => failed(o, { allowSkipped: true }));
    const dropInventory = !anyFailed && !s.cancelled() && remaining.length === 0;
    await group(req.emit, tasks.last.name, 'Inventory', async () => {
        if (s.dryRun)
            return;
        if (dropInventory) {
            if (cluster.kind === 'ResourceGroup')
                await deleteResourceGroup(req.client, req.inventory, cluster.object.metadata.uid);
            else
                await deleteConfigMapInventory(req.client, cluster.object);
        }
        else if (cluster.kind === 'ResourceGroup') {
            await writeResourceGroup(req.client, req.inventory, finalInventory(s), cluster.object, {
                status: req.options.statusPolicy === 'all',
            });
        }
    });
    if (ownNs && !s.cancelled())
        await destroyOwnNamespace(s, ownNs, nsTasks, dropInventory, req.onProgress);
    const objects = withDecisions(s);
    const result = finishedResult(objects, s.startedAt, s.cancelled(), runFailed(objects, req.options.allowSkipped));
    // the deploy history lived in that Namespace: there is nowhere left to record this run
    if (nsKey && s.deleted.has(nsKey) && !s.dryRun)
        result.namespaceDeleted = req.inventory.namespace;
    return { ...result, plan, ...(s.dryRun ? { dryRun: true } : {}) };
}
async function destroyOwnNamespace(s, ownNs, nsTasks, dropInventory, onProgress) {
    const [del, wait] = nsTasks;
    await group(s.emit, del.name, 'Delete', async () => {
        if (dropInventory)
            await removeInventoryNamespace(s, ownNs, del.name);
        else
            keepInventoryNamespace(s, ownNs, del.name);
    });
    if (s.dryRun)
        return;
    await group(s.emit, wait.name, 'Wait', () => waitWave(s, [ownNs], wait.name, 'NotFound', onProgress));
}

;// CONCATENATED MODULE: ./src/apply/live-snapshot.ts


/**
 * Reads the live state of many objects cheaply: one LIST per kind and namespace (metadata only unless
 * `full`) instead of a GET per object; GETs where there are only a few objects of a kind, or when the
 * credentials may not list.
 */
async function readLiveSnapshot(client, refs, options = {}) {
    return new LiveReader(client, options).read(refs);
}
/**
 * readLiveSnapshot in steps: a kind and namespace listed once is not listed again, so a run can read the
 * package's objects while the inventory is read, then only what the inventory adds.
 */
class LiveReader {
    client;
    options;
    listed = new Map();
    snapshot = new Map();
    constructor(client, options = {}) {
        this.client = client;
        this.options = options;
    }
    /** The live state of `refs` (and of everything read before). */
    async read(refs) {
        const { client, options, snapshot } = this;
        const groups = new Map();
        for (const ref of refs) {
            if (snapshot.has((0,object_id/* idKey */.T4)(ref)))
                continue;
            const info = await client.resolveId(ref);
            if (!info)
                continue;
            const ns = info.namespaced ? ref.namespace : undefined;
            const key = `${info.group}/${info.kind}/${ns ?? ''}`;
            const found = this.listed.get(key);
            if (found) {
                snapshot.set((0,object_id/* idKey */.T4)(ref), found.get((0,object_id/* idKey */.T4)(ref)) ?? null);
                continue;
            }
            let g = groups.get(key);
            if (!g) {
                g = { info, namespace: ns, refs: [] };
                groups.set(key, g);
            }
            g.refs.push(ref);
        }
        const threshold = options.listThreshold ?? 3;
        const getOne = async (ref) => void snapshot.set((0,object_id/* idKey */.T4)(ref), (await client.get(ref)) ?? null);
        const tasks = [];
        for (const [key, g] of groups) {
            if (g.refs.length < threshold) {
                for (const ref of g.refs)
                    tasks.push(() => getOne(ref));
                continue;
            }
            tasks.push(async () => {
                try {
                    const list = await client.list(g.info, g.namespace, { metadataOnly: !options.full });
                    const found = new Map();
                    for (const item of list.items) {
                        const obj = withType(item, g.info);
                        found.set((0,object_id/* idKey */.T4)({
                            group: g.info.group,
                            kind: g.info.kind,
                            namespace: obj.metadata.namespace ?? '',
                            name: obj.metadata.name,
                        }), obj);
                    }
                    this.listed.set(key, found);
                    for (const ref of g.refs)
                        snapshot.set((0,object_id/* idKey */.T4)(ref), found.get((0,object_id/* idKey */.T4)(ref)) ?? null);
                }
                catch (err) {
                    if (!(err instanceof api_error/* KubeApiError */.W3 && err.forbidden))
                        throw err;
                    await Promise.all(g.refs.map(getOne));
                }
            });
        }
        // bounded parallelism over the LISTs and GETs
        const limit = options.concurrency ?? 8;
        let next = 0;
        await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, async () => {
            while (next < tasks.length)
                await tasks[next++]();
        }));
        return snapshot;
    }
}
/** PartialObjectMetadata items carry meta.k8s.io's type: put the real apiVersion and kind back. */
function withType(item, info) {
    return {
        ...item,
        apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
        kind: info.kind,
    };
}

;// CONCATENATED MODULE: ./src/apply/preflight.ts

/**
 * What the pre-flight walk refuses: every package object it decided is an error (rejected by the server's
 * dry-run, an unknown kind, an object being deleted). None under `preflight: off`: each object is then
 * judged by its own write.
 */
function preflightRejections(pre) {
    if (pre.options.preflight === 'off')
        return [];
    const out = [];
    for (const id of pre.plan.applyWaves.flat()) {
        const d = pre.decisions.get((0,object_id/* idKey */.T4)(id));
        if (d?.action === 'error')
            out.push({ id, message: d.reason ?? 'rejected', unanswered: d.unanswered });
    }
    return out;
}
function formatRejections(state, rejections) {
    const line = (r) => {
        const src = state.sources.get((0,object_id/* idKey */.T4)(r.id));
        return `- ${src ? `${src.file}:${src.line}: ` : ''}${(0,object_id/* shortName */.EU)(r.id)}: ${r.message}`;
    };
    const judged = rejections.filter((r) => !r.unanswered);
    const unanswered = rejections.filter((r) => r.unanswered);
    const parts = [];
    if (judged.length > 0)
        parts.push(`pre-flight server-side dry-run rejected ${judged.length} object(s); nothing was changed:\n${judged.map(line).join('\n')}`);
    if (unanswered.length > 0)
        parts.push(`pre-flight server-side dry-run could not complete for ${unanswered.length} object(s) (the API server did not answer, after retries); nothing was changed:\n${unanswered.map(line).join('\n')}`);
    return parts.join('\n');
}

;// CONCATENATED MODULE: ./src/apply/apply-object.ts

/** The manifest we send: the package's object plus our owning-inventory annotation. */
function withOwningInventory(obj, inventoryId) {
    // new top level, metadata and annotations; the rest is shared with obj (neither is changed afterwards)
    return {
        ...obj,
        metadata: {
            ...obj.metadata,
            annotations: { ...(obj.metadata.annotations ?? {}), [constants/* Annotations */.rB.OwningInventory]: inventoryId },
        },
    };
}

;// CONCATENATED MODULE: ./src/apply/run-input.ts




/**
 * Reads the live objects of the package and of the inventory (whole objects: the pre-flight and preview
 * compare dry-runs with them) and plans waves over them. Prune candidates are inventory objects no longer
 * in the package that still exist (unknown kinds are dropped, as kpt does). The package's objects are
 * read while `clusterIds` (the inventory read) is still on its way; then only what the inventory adds.
 */
async function readRunInput(client, objects, inventory, clusterIds, options) {
    const manifests = new Map();
    const sources = new Map();
    for (const o of objects) {
        const key = (0,object_id/* idKey */.T4)((0,object_id/* idOf */.TH)(o.object));
        manifests.set(key, withOwningInventory(o.object, inventory.id));
        if (o.source)
            sources.set(key, o.source);
    }
    const reader = new LiveReader(client, { full: true, concurrency: options.concurrency });
    const [ids] = await Promise.all([
        clusterIds,
        reader.read([...manifests.values()].map((m) => ({ ...(0,object_id/* idOf */.TH)(m), apiVersion: m.apiVersion }))),
    ]);
    const previous = new Map(ids.map((id) => [(0,object_id/* idKey */.T4)(id), id]));
    const live = await reader.read([...previous].filter(([k]) => !manifests.has(k)).map(([, id]) => id));
    const prune = [...previous].filter(([k]) => !manifests.has(k) && live.get(k)).map(([k]) => live.get(k));
    const plan = buildPlan({ apply: [...manifests.values()], prune });
    return { manifests, sources, previous, live, plan };
}

;// CONCATENATED MODULE: ./src/inventory/read-inventory.ts


/**
 * The cluster's inventory for this package: the ResourceGroup, else a legacy ConfigMap inventory, else none.
 * `together`: ask for both at once (one round trip less when there is no ResourceGroup yet, one LIST more
 * when there is); the answer is the same, and the ConfigMap list's failure matters only without a ResourceGroup.
 */
async function readClusterInventory(client, inv, options = {}) {
    if (!options.together)
        return (await readResourceGroup(client, inv)) ?? (await readConfigMapInventory(client, inv));
    const legacy = readConfigMapInventory(client, inv);
    legacy.catch(() => { }); // read only when there is no ResourceGroup
    return (await readResourceGroup(client, inv)) ?? (await legacy);
}

;// CONCATENATED MODULE: ./src/pipeline/cluster-run.ts










/**
 * An apply of the package's objects, after the lock (a dry run takes none): the cluster's inventory, the
 * live state and the plan, then the engine. A dry run walks once and records every decision (the preview).
 * A real run walks first as a silent dry run (the pre-flight, asking the server as `preflight` says), stops
 * with nothing changed when that walk met an object it must refuse or a plan that differs from the
 * reviewed one under `plan-drift: fail`, then carries out those decisions. Never throws.
 */
async function applySteps(req) {
    const startedAt = Date.now();
    try {
        const rgServed = !!(await req.client.resolve(constants/* ResourceGroupApiVersion */.u_, constants/* ResourceGroupKind */.gM));
        // the package's live objects are read while the inventory is; a real apply also asks for a legacy
        // ConfigMap inventory at once (one round trip fewer before a first apply's first write)
        const reading = rgServed
            ? readClusterInventory(req.client, req.inventory, { together: !req.dryRun })
            : undefined;
        const ids = reading ? reading.then((c) => c?.ids ?? []) : [];
        const [input, cluster] = await Promise.all([
            readRunInput(req.client, req.objects, req.inventory, ids, { concurrency: req.options.concurrency }),
            reading,
        ]);
        const engine = { ...req, input, cluster, rgServed };
        checkApplyInput(engine);
        if (req.dryRun) {
            const ask = {
                kind: 'all',
                exhaustive: req.options.preflight === 'all',
                keepCoOwners: req.keepCoOwners,
            };
            return { run: applyResult(await applier_dryRunApply(engine, ask)) };
        }
        const pre = await applier_dryRunApply({ ...engine, emit: () => { } }, askFor(req.options.preflight));
        const rejections = preflightRejections(pre);
        if (rejections.length > 0)
            throw new FatalRunError(formatRejections(pre, rejections));
        const planned = { outcomes: withDecisions(pre), plan: pre.plan, desired: [...pre.manifests.values()] };
        const planCheck = req.gate && checkPlan(req.gate, await plannedEntries(planned, req.options));
        if (planCheck?.refuse)
            throw new FatalRunError(planCheck.refuse);
        return { run: await carryOutApply(engine, pre), ...(planCheck ? { planCheck } : {}) };
    }
    catch (err) {
        return { run: fatalResult(req.emit, err, [], startedAt) };
    }
}
/** The pre-flight's ask policy from `preflight`. */
function askFor(preflight) {
    if (preflight === 'all')
        return { kind: 'all', exhaustive: true };
    if (preflight === 'off')
        return { kind: 'none' };
    return { kind: 'sample' };
}
/**
 * A destroy, after the lock (a dry run takes none): the cluster's inventory and the live state of what it
 * lists, then the engine. No inventory in the cluster: nothing to do. Never throws.
 */
async function destroySteps(req) {
    const startedAt = Date.now();
    try {
        const cluster = await readClusterInventory(req.client, req.inventory);
        if (!cluster)
            return { outcome: 'success', objects: [], durationMs: Date.now() - startedAt };
        const live = await readLiveSnapshot(req.client, cluster.ids, { concurrency: req.options.concurrency });
        return await runDestroy({ ...req, cluster, live });
    }
    catch (err) {
        return fatalResult(req.emit, err, [], startedAt);
    }
}

;// CONCATENATED MODULE: ./src/pipeline/drift-health.ts




/** Statuses that may still turn Current by themselves: drift waits for those before judging. */
const SETTLING = new Set(['InProgress', 'Terminating']);
/**
 * The health of an inventory's objects once they settled: those already Current, Failed or gone are
 * judged at once (from the status mode's read); those still reconciling are watched (as apply's waits do)
 * until they turn Current or Failed, or the timeout passes, so a rollout in progress does not read as
 * drift. Read-only: LIST, WATCH and GET.
 */
async function settleHealth(client, initial, options) {
    const judged = initial.filter((s) => !options.exempt.has((0,object_id/* idKey */.T4)(s.id)));
    const settled = judged.filter((s) => !SETTLING.has(s.status));
    const pending = judged.filter((s) => SETTLING.has(s.status));
    const verdicts = settled.map((s) => ({ id: s.id, status: s.status, message: s.message }));
    if (pending.length === 0 || options.signal?.aborted) {
        return [...verdicts, ...pending.map((s) => ({ id: s.id, status: s.status, message: s.message }))];
    }
    const watcher = new ObjectWatcher(client);
    try {
        const targets = pending.map((s) => ({ ref: s.id }));
        await watcher.track(targets.map((t) => t.ref));
        const outcomes = await waitForObjects(watcher, targets, {
            condition: 'Current',
            timeoutMs: options.timeoutMs,
            status: { waitForJobs: options.waitForJobs },
            signal: options.signal,
            onProgress: (left, elapsed) => options.onProgress?.(`waiting ${(0,duration/* formatDuration */.a)(elapsed)} for ${left.length} object(s) to reconcile before judging drift`),
        });
        for (const o of outcomes) {
            if (o.status === 'Successful')
                verdicts.push({ id: o.ref, status: 'Current', message: o.last.message });
            else if (o.status === 'Failed')
                verdicts.push({ id: o.ref, status: 'Failed', message: o.last.message });
            else {
                const after = options.timeoutMs > 0 ? ` after ${(0,duration/* formatDuration */.a)(options.timeoutMs)}` : '';
                verdicts.push({
                    id: o.ref,
                    status: o.last.status,
                    message: `not Current${after}${o.last.message ? `: ${o.last.message}` : ''}`,
                });
            }
        }
    }
    finally {
        watcher.stop();
    }
    return verdicts;
}

;// CONCATENATED MODULE: ./src/pipeline/package-status.ts





/** `status` mode: the kstatus of every object the inventory lists, without applying anything. */
async function readPackageStatus(client, inventory, options = {}) {
    if (!(await client.resolve(constants/* ResourceGroupApiVersion */.u_, constants/* ResourceGroupKind */.gM)))
        return { found: false, objects: [] };
    const cluster = await readClusterInventory(client, inventory);
    if (!cluster)
        return { found: false, objects: [] };
    const live = await readLiveSnapshot(client, cluster.ids, { full: true, concurrency: options.concurrency });
    return {
        found: true,
        objects: cluster.ids.map((id) => {
            const obj = live.get((0,object_id/* idKey */.T4)(id));
            if (obj === undefined)
                return { id, status: 'Unknown', message: 'kind not served by the cluster' };
            if (obj === null)
                return { id, status: 'NotFound', message: 'Resource not found' };
            const r = computeStatus(obj, { waitForJobs: options.waitForJobs });
            return { id, status: r.status, message: r.message };
        }),
    };
}

;// CONCATENATED MODULE: ./src/pipeline/prepare-package.ts





/**
 * load → validate for one deployable unit, with the scope of each kind taken from discovery. Every
 * problem is collected; any problem throws a PackageFailure carrying all of them (nothing has been sent
 * to the cluster yet).
 */
async function preparePackage(client, dir, options) {
    // each kind's discovery is fetched as soon as a file names it, while the other files are still read
    const asked = new Set();
    const loaded = await load_package_loadPackage(dir, {
        repoRoot: options.repoRoot,
        inventoryOnly: options.inventoryOnly,
        onKinds: (kinds) => {
            for (const { apiVersion, kind } of kinds) {
                const key = `${apiVersion}/${kind}`;
                if (asked.has(key))
                    continue;
                asked.add(key);
                client.resolve(apiVersion, kind).catch(() => { }); // asked again, and its failure reported, below
            }
        },
    });
    const errors = [...loaded.errors];
    if (!loaded.inventory && !errors.some((e) => /inventory/i.test(e.message))) {
        errors.push({
            file: loaded.dir,
            message: 'the package has no inventory information (resourcegroup.yaml or a Kptfile `inventory:` section)',
            fix: `create one with \`kpt-live init ${loaded.dir}\` (or \`kpt live init ${loaded.dir}\`) and commit it`,
        });
    }
    if (errors.length > 0 || !loaded.inventory)
        throw new PackageFailure(errors);
    if (options.inventoryOnly)
        return { dir: loaded.dir, objects: [], inventory: loaded.inventory, notices: loaded.notices };
    const scope = await scopeLookupFor(client, loaded.objects);
    let extraIds = [];
    // depends-on may name an object that is only in the inventory (about to be pruned): read it only then
    if (loaded.objects.some((o) => o.object.metadata?.annotations?.[constants/* Annotations */.rB.DependsOn] !== undefined)) {
        try {
            extraIds = (await readClusterInventory(client, loaded.inventory))?.ids ?? [];
        }
        catch {
            // no ResourceGroup CRD yet, or no permission to read it: nothing to prune, the apply will say more
        }
    }
    const validated = validatePackage(loaded, { scope, defaultNamespace: options.defaultNamespace, extraIds });
    if (validated.errors.length > 0)
        throw new PackageFailure(validated.errors);
    return {
        dir: loaded.dir,
        objects: validated.objects,
        inventory: loaded.inventory,
        notices: loaded.notices,
    };
}
/** A synchronous scope lookup over discovery answers fetched up front (one request per group-version). */
async function scopeLookupFor(client, objects) {
    const known = new Map();
    const kinds = new Map();
    for (const { object } of objects) {
        if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string')
            continue;
        kinds.set(`${object.apiVersion}/${object.kind}`, { apiVersion: object.apiVersion, kind: object.kind });
    }
    // every group-version at once (discovery caches them): one round trip, not one per group
    await Promise.all([...kinds].map(async ([key, k]) => known.set(key, await client.resolve(k.apiVersion, k.kind))));
    return (group, version, kind) => {
        const info = known.get(`${group ? `${group}/${version}` : version}/${kind}`);
        if (!info)
            return undefined;
        return info.namespaced ? 'Namespaced' : 'Cluster';
    };
}

;// CONCATENATED MODULE: ./src/pipeline/drift-package.ts









/**
 * Drift of one deployable unit, read-only: load and validate it, read its inventory's status (the status
 * mode's read), preview it (the same server-side dry-run and decisions as `preview` and `apply`), and wait
 * for objects still reconciling, up to the reconcile timeout, before judging their health. Takes no lock,
 * writes no history, sends no write but dry-runs. A package with no inventory in the cluster was never
 * applied: that is an error, not drift. Never throws.
 */
async function runDriftPackage(client, dir, o) {
    const result = { path: dir, outcome: 'in-sync', objects: [], notices: [], exitCode: 0 };
    const stopWaiting = new AbortController();
    const onAbort = () => stopWaiting.abort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
        const prepared = await preparePackage(client, dir, {
            repoRoot: o.repoRoot,
            defaultNamespace: o.defaultNamespace,
        });
        result.prepared = prepared;
        result.path = prepared.dir;
        result.notices = prepared.notices;
        const inv = prepared.inventory;
        const status = await readPackageStatus(client, inv, {
            waitForJobs: o.options.waitForJobs,
            concurrency: o.options.concurrency,
        });
        if (!status.found) {
            throw new Error(`no inventory ${inv.namespace}/${inv.name} in the cluster: ${prepared.dir} was never applied (apply it first; drift compares a deployed package with the cluster)`);
        }
        const exempt = new Set(prepared.objects
            .filter((x) => {
            const v = x.object.metadata.annotations?.[constants/* Annotations */.rB.KappDisableWait];
            return v !== undefined && v !== 'false';
        })
            .map((x) => (0,object_id/* idKey */.T4)((0,object_id/* idOf */.TH)(x.object))));
        // objects still reconciling are watched while the preview runs
        const health = settleHealth(client, status.objects, {
            timeoutMs: o.options.reconcileTimeoutMs,
            waitForJobs: o.options.waitForJobs,
            exempt,
            signal: stopWaiting.signal,
            onProgress: o.onProgress,
        });
        health.catch(() => undefined);
        // apply's ownership rule decides what is drift: a hand edit of a field the package sets is (the dry run
        // takes it back, writing nothing, to show the value apply restores); a co-owner's field is not
        const options = o.options;
        const { run } = await applySteps({
            client,
            inventory: inv,
            options,
            objects: prepared.objects,
            emit: () => { },
            signal: o.signal,
            dryRun: true,
            keepCoOwners: true,
        });
        if (run.outcome === 'error' && !run.dryRun) {
            stopWaiting.abort();
            throw new Error(run.error);
        }
        const preview = await previewDocument(run, {
            package: prepared.dir,
            allowSkipped: options.allowSkipped,
            fieldManager: options.fieldManager,
            context: { namespace: inv.namespace, ...o.previewContext },
        });
        result.preview = preview;
        const refused = previewErrors(preview);
        if (refused.length > 0) {
            stopWaiting.abort();
            throw new Error(`the server refused the dry-run of ${refused.length} object(s), so drift cannot be judged:\n${refused
                .map((r) => `  ${(0,object_id/* shortName */.EU)(r.id)}: ${r.reason ?? 'no message'}`)
                .join('\n')}`);
        }
        const verdicts = await health;
        if (o.signal?.aborted)
            throw new Error('cancelled before the objects settled');
        result.objects = classifyDrift(preview, verdicts);
        if (result.objects.length > 0) {
            result.outcome = 'drifted';
            result.exitCode = 4;
        }
        return result;
    }
    catch (err) {
        result.outcome = 'error';
        result.error = err.message;
        if (err instanceof PackageFailure)
            result.packageErrors = err.errors;
        result.objects = [];
        result.exitCode = 1;
        return result;
    }
    finally {
        o.signal?.removeEventListener('abort', onAbort);
    }
}

;// CONCATENATED MODULE: ./src/report/drift-json.ts
/**
 * One package's entry of the drift document (`kpt-live drift --output json`, the action's `result` in
 * drift mode): `{path, drifted, objects}`, only drifted objects, each `{id, drift, changes?, status?,
 * message?}`; `error` when the package could not be checked.
 */
function driftPackageJson(r) {
    return {
        path: r.path,
        drifted: r.outcome === 'drifted',
        objects: r.objects.map(driftObjectJson),
        ...(r.error ? { error: r.error } : {}),
    };
}
function driftObjectJson(o) {
    return {
        id: { group: o.id.group, kind: o.id.kind, namespace: o.id.namespace, name: o.id.name },
        drift: o.drift,
        ...(o.changes?.length ? { changes: o.changes } : {}),
        ...(o.status ? { status: o.status } : {}),
        ...(o.message ? { message: o.message } : {}),
    };
}
function driftDocument(results) {
    return { packages: results.map(driftPackageJson) };
}

;// CONCATENATED MODULE: ./src/report/drift-words.ts

/** Words shared by the drift report's text and markdown forms. */
const DRIFT_SYMBOL = {
    configure: '~',
    create: '+',
    prune: '-',
    status: '!',
};
/** `Deployment/web`, or `Deployment/web (ns)` when the object is not in the package's namespace. */
function driftObjectName(o, namespace) {
    const ns = o.id.namespace && namespace && o.id.namespace !== namespace ? ` (${o.id.namespace})` : '';
    return `${(0,object_id/* shortName */.EU)(o.id)}${ns}`;
}
/** What the drift is, in plain words: `changed in the cluster (2 fields)`, `missing from the cluster`. */
function driftWords(o) {
    switch (o.drift) {
        case 'create':
            return 'missing from the cluster (apply would create it)';
        case 'prune':
            return 'in the inventory but no longer in the package (apply would prune it)';
        case 'configure': {
            const n = o.changes?.length ?? 0;
            const what = n > 0 ? `${n} field${n === 1 ? '' : 's'} differ${n === 1 ? 's' : ''}` : (o.message ?? '');
            const health = o.status ? `; ${o.status}: ${o.message ?? ''}` : '';
            return `changed in the cluster (${what}; apply would set it back)${health}`;
        }
        case 'status':
            return `${o.status ?? 'Unknown'}${o.message ? `: ${o.message}` : ''}`;
    }
}
/** `2 configure, 1 create` over a package's drifted objects, in the order configure, create, prune, status. */
function driftCounts(objects) {
    const counts = new Map();
    for (const o of objects)
        counts.set(o.drift, (counts.get(o.drift) ?? 0) + 1);
    return ['configure', 'create', 'prune', 'status']
        .filter((k) => counts.has(k))
        .map((k) => `${counts.get(k)} ${k}`)
        .join(', ');
}

;// CONCATENATED MODULE: ./src/report/drift-markdown.ts



/** GitHub refuses an issue body above 65,536 characters; stay under it. */
const ISSUE_BODY_LIMIT = 60_000;
/**
 * The hidden line that names a drift issue's package (and comment key), so a later run finds and edits
 * it. `%` and `>` are percent-encoded, as in the preview marker, so a path cannot end the HTML comment.
 */
function driftMarker(pkg, key) {
    const safe = (s) => s.replace(/[%>\r\n\s]/g, (ch) => encodeURIComponent(ch));
    return `<!-- kpt-live-action:drift package=${safe(pkg)}${key ? ` key=${safe(key)}` : ''} -->`;
}
/** The drift issue's title: `Drift: deploy/web` (`[prod]` added for a comment key). */
function driftIssueTitle(pkg, key) {
    return `Drift: ${pkg}${key ? ` [${key}]` : ''}`;
}
/** A package's drift as markdown: a heading, a table of drifted objects, the fields that differ. */
function renderDriftMarkdown(pkg, opts = {}) {
    const heading = opts.heading ?? `### Drift · ${(0,markdown/* code */.aY)(pkg.path)}`;
    if (pkg.error) {
        return [heading, '', `:x: **Not checked**: ${(0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(pkg.error.split('\n')[0], 500))}`, ''].join('\n');
    }
    if (!pkg.drifted)
        return [heading, '', ':white_check_mark: **In sync** with the package.', ''].join('\n');
    const lines = [
        heading,
        '',
        `:warning: **${pkg.objects.length} object(s) differ from the package** (${driftCounts(pkg.objects)}).`,
        '',
        '| object | drift | details |',
        '|---|---|---|',
    ];
    for (const o of pkg.objects) {
        lines.push(`| ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(driftObjectName(o, opts.namespace)))} | ${o.drift} | ${(0,markdown/* cell */.Hn)((0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(driftWords(o), 300)))} |`);
    }
    const changed = pkg.objects.filter((o) => o.changes?.length);
    for (const o of changed) {
        const fields = (o.changes ?? []).map((c) => `${c.redacted ? (0,preview_words/* displayPath */.Gt)(c) : c.path}: ${(0,preview_words/* changeWords */.mF)(c)}`);
        lines.push('', `<details><summary>${(0,markdown/* escapeHtml */.ZD)(driftObjectName(o, opts.namespace))}: fields that differ (cluster → package)</summary>`, '', (0,markdown/* fenced */.OF)(fields.join('\n')), '', '</details>');
    }
    lines.push('');
    return lines.join('\n');
}
/** The drift issue's body: marker, the report, when and where it was checked. */
function renderDriftIssueBody(pkg, opts) {
    const where = [
        opts.commit ? `commit \`${opts.commit.slice(0, 12)}\`` : '',
        opts.runUrl ? `[workflow run](${opts.runUrl})` : '',
    ]
        .filter(Boolean)
        .join(', ');
    const body = [
        driftMarker(pkg.path, opts.key),
        renderDriftMarkdown(pkg, {
            namespace: opts.namespace,
            heading: `### Drift · ${(0,markdown/* code */.aY)(pkg.path)}${opts.key ? ` · ${(0,markdown/* code */.aY)(opts.key)}` : ''}`,
        }),
        `Last checked ${opts.checkedAt}${where ? ` (${where})` : ''}. This issue is updated while the drift lasts and closed when the cluster matches the package again; \`kpt-live apply\` (or a deploy of the main branch) restores it.`,
        '',
    ].join('\n');
    return body.length <= ISSUE_BODY_LIMIT
        ? body
        : `${body.slice(0, ISSUE_BODY_LIMIT)}\n\n… (cut: see the job summary)\n`;
}

;// CONCATENATED MODULE: ./src/report/drift-text.ts



/**
 * `kpt-live drift` on a terminal: one line per drifted object, the fields that differ (cluster → package,
 * Secret values hidden) and, for a changed object, the preview's redacted YAML diff.
 */
function renderDriftText(pkg, opts = {}) {
    if (pkg.error)
        return `Drift of ${pkg.path}: not checked (${pkg.error.split('\n')[0]})\n`;
    if (!pkg.drifted)
        return `Drift of ${pkg.path}: in sync\n`;
    const diffs = new Map((opts.preview?.objects ?? []).map((o) => [(0,object_id/* idKey */.T4)(o.id), o.diff]));
    const names = pkg.objects.map((o) => driftObjectName(o, opts.namespace));
    const width = Math.min(50, Math.max(...names.map((n) => n.length)));
    const lines = [
        `Drift of ${pkg.path}: ${pkg.objects.length} object(s) differ from the package (${driftCounts(pkg.objects)})`,
        '',
    ];
    for (const [i, o] of pkg.objects.entries()) {
        lines.push(`${DRIFT_SYMBOL[o.drift]} ${names[i].padEnd(width)}  ${o.drift}: ${driftWords(o)}`);
        for (const c of o.changes ?? []) {
            lines.push(`    ${c.redacted ? (0,preview_words/* displayPath */.Gt)(c) : c.path} ${(0,preview_words/* changeWords */.mF)(c)}`);
        }
        const diff = o.drift === 'configure' && opts.diffs !== false ? diffs.get((0,object_id/* idKey */.T4)(o.id)) : undefined;
        if (diff)
            for (const line of diff.split('\n'))
                lines.push(`    ${line}`);
    }
    lines.push('', 'Field values read "cluster → package"; `kpt-live apply` would restore the package.');
    return `${lines.join('\n')}\n`;
}

;// CONCATENATED MODULE: ./src/action/drift-mode.ts












/**
 * `mode: drift` (a `schedule:` or `workflow_dispatch` job): every deployable unit on the checked-out
 * commit (or the `packages` input) checked against the cluster, read-only; a job summary section per
 * package; outputs `drifted` and `result`; with `drift-issue: true`, one issue per drifted package kept
 * up to date. Fails the step only on a fatal error, or on drift with `fail-on-drift: true`.
 */
async function runDriftMode(inputs, ctx, repoRoot, octokit, signal) {
    const units = await driftUnits(repoRoot, inputs.packages);
    toolkit/* setOutput */.uH('packages', JSON.stringify(units));
    const results = [];
    if (units.length === 0) {
        toolkit/* info */.pq('no deployable kpt package (a package with inventory information) in the checkout: nothing to check');
    }
    else {
        const conn = await (0,cluster_access/* connectCluster */.b)(inputs.kubeconfig, inputs.context);
        try {
            for (const unit of units) {
                if (signal.aborted)
                    break;
                toolkit/* startGroup */.Oh(`drift ${unit}`);
                const r = await runDriftPackage(conn.client, unit, {
                    repoRoot,
                    defaultNamespace: inputs.namespace || conn.access.namespace,
                    options: inputs.run,
                    previewContext: { cluster: conn.access.clusterName, commit: ctx.sha, runUrl: ctx.runUrl },
                    signal,
                    onProgress: (line) => toolkit/* info */.pq(line),
                });
                const secrets = collectSecretValues(r.prepared?.objects.map((o) => o.object) ?? []);
                if (r.error)
                    r.error = redact_scrub(r.error, secrets);
                toolkit/* info */.pq(renderDriftText(driftPackageJson(r), { preview: r.preview, namespace: namespaceOf(r) }));
                toolkit/* endGroup */.N4();
                report(r);
                toolkit/* appendSummary */.fe(renderDriftMarkdown(driftPackageJson(r), { namespace: namespaceOf(r) }));
                results.push(r);
            }
        }
        finally {
            conn.client.close();
        }
    }
    const doc = driftDocument(results);
    const drifted = doc.packages.filter((p) => p.drifted).map((p) => p.path);
    toolkit/* setOutput */.uH('drifted', JSON.stringify(drifted));
    toolkit/* setOutput */.uH('result', JSON.stringify(doc));
    if (inputs.driftIssue)
        await fileIssues(inputs, ctx, octokit, results);
    const fatal = results.filter((r) => r.outcome === 'error');
    const problems = [
        ...fatal.map((r) => `${r.path}: ${r.error ?? 'could not be checked'}`),
        ...(inputs.failOnDrift && drifted.length > 0
            ? [`drift found in ${drifted.join(', ')} (fail-on-drift: true)`]
            : []),
    ];
    if (signal.aborted)
        toolkit/* setFailed */.C1('cancelled before every package was checked');
    else if (problems.length > 0)
        toolkit/* setFailed */.C1(problems.join('\n'));
    else if (drifted.length > 0)
        toolkit/* info */.pq(`drift found in ${drifted.join(', ')}; the step passes (fail-on-drift: false)`);
    else if (results.length > 0)
        toolkit/* info */.pq('every package is in sync with the cluster');
}
/** The `packages` input (paths, globs), else every deployable unit of the checkout. */
async function driftUnits(repoRoot, explicit) {
    if (explicit.length > 0) {
        const { paths, notes } = await resolveExplicitPackages(repoRoot, explicit);
        for (const n of notes)
            toolkit/* info */.pq(n);
        return paths;
    }
    return (await findUnits(repoRoot)).map((u) => u.dir);
}
const namespaceOf = (r) => r.prepared?.inventory.namespace;
/** Annotations: an error for a package that could not be checked, a warning per drifted package. */
function report(r) {
    for (const n of r.notices)
        toolkit/* notice */.lm(n, { title: r.path });
    for (const e of r.packageErrors ?? []) {
        toolkit/* error */.z3(formatPackageError(e), {
            title: `kpt-live-action: ${r.path}`,
            file: e.file,
            startLine: e.line,
        });
    }
    if (r.error && !r.packageErrors)
        toolkit/* error */.z3(r.error, { title: `kpt-live-action: ${r.path}` });
    if (r.outcome === 'drifted') {
        toolkit/* warning */.$e(`${r.objects.length} object(s) differ from the package`, { title: `drift: ${r.path}` });
    }
}
/** One issue per drifted package (and comment key); packages that could not be checked are left alone. */
async function fileIssues(inputs, ctx, octokit, results) {
    if (!octokit) {
        toolkit/* notice */.lm('no github-token: drift issues not written (the job summary has the drift)');
        return;
    }
    const checked = results.filter((r) => r.outcome !== 'error');
    if (checked.length === 0)
        return;
    let issues;
    try {
        issues = await listDriftIssues(octokit, ctx.owner, ctx.repo);
    }
    catch (err) {
        const status = (0,api_response/* httpStatusOf */.s_)(err);
        const what = `listing the "${DRIFT_LABEL}" issues`;
        if (status === 403 || status === 404 || status === 410)
            toolkit/* notice */.lm(driftIssueSkipReason(status, (0,api_response/* apiMessageOf */.rU)(err), what));
        else
            toolkit/* warning */.$e(`drift issues not written: ${what} failed: ${(0,api_response/* apiMessageOf */.rU)(err)}`);
        return;
    }
    const key = inputs.commentKey || undefined;
    const checkedAt = new Date().toISOString();
    for (const r of checked) {
        const pkg = driftPackageJson(r);
        try {
            const res = await syncDriftIssue(octokit, issues, {
                owner: ctx.owner,
                repo: ctx.repo,
                marker: driftMarker(r.path, key),
                title: driftIssueTitle(r.path, key),
                body: renderDriftIssueBody(pkg, {
                    key,
                    namespace: namespaceOf(r),
                    runUrl: ctx.runUrl,
                    commit: ctx.sha,
                    checkedAt,
                }),
                drifted: pkg.drifted,
                inSyncComment: `In sync again: checked ${checkedAt}${ctx.runUrl ? ` in ${ctx.runUrl}` : ''}. Closing.`,
            });
            if (res.action === 'skipped')
                toolkit/* notice */.lm(res.reason, { title: `drift issue: ${r.path}` });
            else if (res.action !== 'none')
                toolkit/* info */.pq(`drift issue ${res.action}: #${res.number}${res.url ? ` ${res.url}` : ''}`);
        }
        catch (err) {
            const reason = err.message;
            toolkit/* warning */.$e(`could not update the drift issue of ${r.path}: ${reason}`);
            (0,run_state/* noteUnposted */.nl)(octokit, `the drift issue of ${r.path}`, reason);
        }
    }
}

// EXTERNAL MODULE: ./src/action/inputs.ts + 1 modules
var inputs = __webpack_require__(569);
;// CONCATENATED MODULE: ./src/action/combined-preview.ts






/**
 * Writes the combined preview comment of one pull request and key: its parts edited in place (created
 * when missing), parts an earlier, longer comment left marked unused, and our per-package comments of
 * this key edited to point to it. Writes go one at a time (the request policy spaces them).
 */
async function writeCombinedPreview(octokit, thread, input, report) {
    const { key } = input;
    const existing = combinedParts(thread.comments, key);
    const previewed = new Set(input.entries.map((e) => e.doc.package));
    if (input.onlyChanges && existing.size === 0 && !input.entries.some((e) => (0,preview_words/* hasChanges */.ik)(e.doc.summary)))
        return;
    const earlier = [...existing.values()].flatMap((c) => (0,combined_sections/* sectionPackages */.LN)(c.body ?? ''));
    const others = [...new Set(earlier)].filter((p) => !previewed.has(p));
    const carried = input.explicitPackages
        ? others.map((p) => ({
            package: p,
            inner: [...existing.values()].map((c) => (0,combined_sections/* packageSection */.Sf)(c.body ?? '', p)).find((s) => s !== undefined) ??
                '',
        }))
        : [];
    const parts = renderCombinedComment(input.entries, {
        commentKey: key,
        carried,
        noLongerChanged: input.explicitPackages ? [] : others,
    });
    const urls = [];
    for (const [i, body] of parts.entries()) {
        const res = await (0,pr_comment/* writeMarkedComment */.zl)(octokit, thread, (0,combined_sections/* combinedMarker */.g$)(i + 1, key), body);
        report(`combined preview (part ${i + 1} of ${parts.length})`, res);
        if (res.action === 'skipped')
            return;
        urls.push(res.url);
    }
    for (const [n, c] of existing) {
        if (n <= parts.length || c.body === unusedPartBody(n, key))
            continue;
        report(`combined preview (unused part ${n})`, await (0,pr_comment/* writeMarkedComment */.zl)(octokit, thread, (0,combined_sections/* combinedMarker */.g$)(n, key), unusedPartBody(n, key)));
    }
    // per-package comments of this key from the per-package layout now point to the part holding them
    const partOf = (pkg) => parts.findIndex((body) => (0,combined_sections/* packageSection */.Sf)(body, pkg) !== undefined);
    const moved = new Set();
    for (const c of [...thread.comments]) {
        const named = c.body ? (0,preview_markdown/* parsePreviewMarker */._t)(c.body) : undefined;
        if (!named || named.key !== key || moved.has(named.package))
            continue;
        if (input.explicitPackages && !previewed.has(named.package))
            continue;
        const marker = (0,preview_markdown/* previewMarker */.fh)(named.package, key);
        moved.add(named.package);
        if (isMovedToCombined((0,pr_comment/* pickMarkedComment */.FG)(thread.comments, marker)?.body))
            continue;
        const i = partOf(named.package);
        report(`comment of ${named.package} (moved to the combined preview)`, await (0,pr_comment/* writeMarkedComment */.zl)(octokit, thread, marker, movedToCombinedBody(marker, named.package, urls[i < 0 ? 0 : i])));
    }
}
/**
 * Under `comment-layout: per-package`, our combined comment of this key (an earlier run's) says it is no
 * longer updated: its digests go, so only the per-package comments are read as the reviewed plans.
 */
async function retireCombinedPreview(octokit, thread, key, report) {
    for (const [n, c] of combinedParts(thread.comments, key)) {
        const body = replacedByPerPackageBody(n, key);
        if (c.body === body)
            continue;
        report(`combined preview (part ${n}, replaced by per-package comments)`, await (0,pr_comment/* writeMarkedComment */.zl)(octokit, thread, (0,combined_sections/* combinedMarker */.g$)(n, key), body));
    }
}

;// CONCATENATED MODULE: ./src/action/preview-comments.ts










/**
 * The plan digest of a preview (a hidden HTML comment the apply job compares with), with the package's git
 * tree at review (`tree`) for the apply's plan-drift check.
 */
function planDigestOf(r, tree) {
    return (0,plan_digest_marker/* renderPlanDigest */._p)(reviewedPlan(planOf(r.preview.objects, (r.prepared?.objects ?? []).map((o) => o.object)), tree));
}
/** The comment body of a preview: the rendered preview (marker first) and its plan digest, hidden. */
function previewCommentBody(r, commentKey, tree) {
    const digest = planDigestOf(r, tree);
    const md = (0,preview_markdown/* renderPreviewMarkdown */.mV)(r.preview, {
        commentKey,
        maxLength: preview_markdown/* GITHUB_COMMENT_LIMIT */._4 - digest.length - 2,
    });
    return `${md}${digest}\n`;
}
/**
 * The preview comments of one pull request run. Per package (`comment-layout: per-package`, or `auto`
 * with few packages): one comment per (package, comment-key), written as each package finishes.
 * Combined: one comment per pull request and key, written once every package is previewed (see
 * combined-preview.ts). Only comments the token's own identity wrote are read or edited. Comment
 * problems never fail the job: a notice or warning, and the job summary has the preview.
 *
 * For a loop: `begin(paths)` before the packages run (reads the thread, chooses the layout),
 * `onPreview(result)` after each package, `finish(covered)` after the last.
 */
class PreviewComments {
    inputs;
    ctx;
    octokit;
    thread;
    layout;
    entries = new Map();
    noticed = false;
    constructor(inputs, ctx, octokit) {
        this.inputs = inputs;
        this.ctx = ctx;
        this.octokit = octokit;
    }
    get active() {
        return this.inputs.comment !== 'never' && this.ctx.pullRequest !== undefined;
    }
    notice(text) {
        if (this.noticed)
            return;
        this.noticed = true;
        toolkit/* notice */.lm(text);
    }
    async readThread() {
        if (!this.octokit) {
            this.notice('no github-token: skipping the PR comment (the job summary has the preview)');
            return undefined;
        }
        this.thread ??= (0,pr_comment/* readCommentThread */.YA)(this.octokit, {
            owner: this.ctx.owner,
            repo: this.ctx.repo,
            issueNumber: this.ctx.pullRequest.number,
        });
        const t = await this.thread;
        if ('skipped' in t) {
            this.notice(`PR comment skipped: ${t.skipped}`);
            return undefined;
        }
        return t;
    }
    report = (what, res) => {
        if (res.action === 'skipped')
            this.notice(`PR comment skipped: ${res.reason}`);
        else
            toolkit/* info */.pq(`PR comment for ${what} ${res.action}${res.url ? `: ${res.url}` : ''}${res.note ? ` (${res.note})` : ''}`);
    };
    failed(what, err) {
        const reason = err.message;
        toolkit/* warning */.$e(`could not write the PR comment of ${what}: ${reason}`);
        if (this.octokit)
            (0,run_state/* noteUnposted */.nl)(this.octokit, `the PR comment of ${what}`, reason);
    }
    /** Before the run: reads the pull request's comments and chooses the layout for `paths` packages. */
    async begin(paths) {
        if (!this.active)
            return;
        this.layout ??= (async () => {
            const thread = await this.readThread().catch(() => undefined);
            const layout = (0,comment_layout/* chooseLayout */.EM)(this.inputs.commentLayout, paths.length, thread?.comments ?? [], this.inputs.commentKey);
            if (layout === 'combined' && this.inputs.commentLayout === 'auto')
                toolkit/* info */.pq(`${paths.length} package(s): one combined PR comment (comment-layout: auto)`);
            return layout;
        })();
        await this.layout;
    }
    /** Writes (or, under `changes`, maybe leaves out) the comment of one previewed package; `tree`: its git tree. */
    async onPreview(r, tree) {
        if (!this.active || !r.preview)
            return;
        try {
            await this.begin([]);
            if ((await this.layout) === 'combined') {
                this.entries.set(r.path, { doc: r.preview, digest: planDigestOf(r, tree) });
                return;
            }
            const thread = await this.readThread();
            if (!thread)
                return;
            const marker = (0,preview_markdown/* previewMarker */.fh)(r.path, this.inputs.commentKey);
            const existing = (0,pr_comment/* pickMarkedComment */.FG)(thread.comments, marker);
            if (!(0,preview_words/* hasChanges */.ik)(r.preview.summary) && this.inputs.comment === 'changes' && !existing) {
                toolkit/* info */.pq(`${r.path}: nothing would change; no PR comment (comment: changes)`);
                return;
            }
            this.report(r.path, await (0,pr_comment/* writeMarkedComment */.zl)(this.octokit, thread, marker, previewCommentBody(r, this.inputs.commentKey, tree)));
        }
        catch (err) {
            this.failed(r.path, err);
        }
    }
    /**
     * After the run. Combined: writes the combined comment. Per package: updates the comments of this key
     * whose package the pull request no longer changes (`covered` holds every package this run handled);
     * only when the packages come from the change set: with an explicit `packages` list another package's
     * comment may belong to another job.
     */
    async finish(covered) {
        if (!this.active)
            return;
        try {
            await this.begin(covered);
            const thread = await this.readThread();
            if (!thread)
                return;
            const key = this.inputs.commentKey;
            if ((await this.layout) === 'combined') {
                const order = new Map(covered.map((p, i) => [p, i]));
                const entries = [...this.entries.values()].sort((a, b) => (order.get(a.doc.package) ?? 0) - (order.get(b.doc.package) ?? 0));
                await writeCombinedPreview(this.octokit, thread, {
                    entries,
                    key,
                    onlyChanges: this.inputs.comment === 'changes',
                    explicitPackages: this.inputs.packages.length > 0,
                }, this.report);
                return;
            }
            if (this.inputs.packages.length > 0)
                return;
            if (this.inputs.commentLayout === 'per-package')
                await retireCombinedPreview(this.octokit, thread, key, this.report);
            await this.noLongerChanged(thread, covered);
        }
        catch (err) {
            this.failed('this pull request', err);
        }
    }
    async noLongerChanged(thread, covered) {
        const handled = new Set(covered);
        for (const c of [...thread.comments]) {
            const named = c.body ? (0,preview_markdown/* parsePreviewMarker */._t)(c.body) : undefined;
            if (!named || named.key !== this.inputs.commentKey || handled.has(named.package))
                continue;
            if (isMovedToCombined(c.body))
                continue;
            const marker = (0,preview_markdown/* previewMarker */.fh)(named.package, named.key);
            if ((0,pr_comment/* pickMarkedComment */.FG)(thread.comments, marker) !== c || (0,pr_comment_body/* isNoLongerChanged */.LX)(c.body ?? ''))
                continue;
            handled.add(named.package);
            const body = (0,pr_comment_body/* noLongerChangedBody */.Je)(c.body ?? '', {
                package: named.package,
                commentKey: named.key,
                commit: this.ctx.pullRequest?.headSha,
            });
            this.report(named.package, await (0,pr_comment/* writeMarkedComment */.zl)(this.octokit, thread, marker, body));
        }
    }
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
var external_node_fs_default = /*#__PURE__*/__webpack_require__.n(external_node_fs_);
// EXTERNAL MODULE: ./src/kube/in-cluster.ts
var in_cluster = __webpack_require__(8233);
// EXTERNAL MODULE: ./src/kube/kube-config.ts
var kube_config = __webpack_require__(367);
;// CONCATENATED MODULE: ./src/report/hide-live-values.ts
/**
 * A preview fit for a reader the cluster's values must not reach (a pull request from a fork: its log,
 * job summary and comment are public, and its author chose what is compared): which objects change and
 * which fields differ, never a value. Diffs go (they print live objects) and so do the before/after
 * values of each field change; every renderer then shows field paths with "changed", "added", "removed".
 */
function withoutLiveValues(doc) {
    return {
        ...doc,
        objects: doc.objects.map(({ diff: _diff, ...obj }) => ({
            ...obj,
            ...(obj.changes
                ? {
                    changes: obj.changes.map(({ before: _before, after: _after, ...change }) => change),
                }
                : {}),
        })),
    };
}

;// CONCATENATED MODULE: ./src/action/pull-request-trust.ts








/**
 * Pull requests whose code the repository does not vouch for: from a fork, or by Dependabot. GitHub gives
 * their `pull_request` runs a read-only token and no secrets, so there is usually no cluster to preview
 * against; where there is one (a self-hosted runner in the cluster, `pull_request_target`), their preview
 * runs restricted: strict inventory policy, no values from the cluster in anything it prints, and no
 * change to a Kptfile or inventory file. `pull_request_target` also runs with the base branch checked out:
 * the preview reads the pull request's head only from a directory of its own (`working-directory`).
 */
const DEPENDABOT = 'dependabot[bot]';
/** Why the pull request is untrusted ('fork', 'Dependabot'), or undefined for a same-repository one. */
function untrustedSource(ctx, env = process.env) {
    const pr = ctx.pullRequest;
    if (!pr)
        return undefined;
    if (pr.headRepoFork)
        return 'a fork';
    if (pr.author === DEPENDABOT || env.GITHUB_ACTOR === DEPENDABOT)
        return 'Dependabot';
    return undefined;
}
/** True when the run has a way into a cluster: the kubeconfig input, KUBECONFIG, ~/.kube/config, a pod. */
function hasClusterCredentials(kubeconfig, env = process.env) {
    const origin = (0,kube_config/* chooseKubeConfig */.dp)({ kubeconfigContent: kubeconfig || undefined }, env, env.HOME || external_node_os_default().homedir(), (f) => external_node_fs_default().existsSync(f), (0,in_cluster/* inClusterAvailable */.P)(env));
    return origin.kind !== 'none';
}
/**
 * The notice and job summary of a skipped preview: an untrusted pull request without credentials (GitHub
 * withheld the secrets). Undefined when the preview goes ahead.
 */
function untrustedSkip(inputs, ctx, env = process.env) {
    const who = untrustedSource(ctx, env);
    if (!who || hasClusterCredentials(inputs.kubeconfig, env))
        return undefined;
    const n = ctx.pullRequest?.number;
    const notice = `preview skipped: pull request #${n} comes from ${who}, and GitHub gives such runs no secrets, so there are no cluster credentials. A maintainer previews it with a pull_request_target workflow (see the README, "Pull requests from forks").`;
    const summary = [
        `### Preview skipped · pull request #${n} from ${who}`,
        '',
        `GitHub runs \`pull_request\` workflows of pull requests from ${who} with a read-only token and without the repository's secrets, so this run has no cluster credentials to preview with. Nothing failed.`,
        '',
        '**To preview it**, a maintainer who has read the change adds the label that starts a `pull_request_target` workflow such as `examples/workflows/preview-fork.yml`: it checks the pull request head out into a directory of its own (never running its code), points the action at it with `working-directory`, and previews with strict inventory policy and no cluster values shown.',
        '',
    ].join('\n');
    return { notice, summary };
}
/**
 * Under `pull_request_target` the workspace holds the base branch: refuses to preview unless the tree it
 * reads (`repoRoot`) is the pull request's head commit, naming the fix.
 */
async function checkTargetCheckout(ctx, repoRoot) {
    if (ctx.name !== 'pull_request_target' || !ctx.pullRequest)
        return;
    const head = ctx.pullRequest.headSha;
    const read = await git(repoRoot, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).then((r) => r.stdout.trim(), () => undefined);
    if (read === head)
        return;
    const where = read ? `commit ${read.slice(0, 7)}` : 'no git commit';
    throw new Error(`pull_request_target: the packages are read from ${repoRoot}, which holds ${where}, not the pull request's head ${head.slice(0, 7)}: the preview would show the wrong manifests under the pull request's name. Check the head out into a directory of its own (actions/checkout with ref: \${{ github.event.pull_request.head.sha }}, path: pr, persist-credentials: false) and set working-directory: pr (see examples/workflows/preview-fork.yml)`);
}
/** The directory the packages are read from: `working-directory` under the workspace, or the workspace. */
function packagesRoot(inputs, env = process.env) {
    const workspace = env.GITHUB_WORKSPACE || process.cwd();
    return inputs.workingDirectory ? external_node_path_default().resolve(workspace, inputs.workingDirectory) : workspace;
}
/** The Kptfiles and inventory files among a change's files (a rename counts by either name). */
function inventoryChanges(files) {
    const isInventory = (p) => p !== undefined && ['Kptfile', constants/* ResourceGroupFile */.yb].includes(external_node_path_default().posix.basename(p));
    return files.filter((f) => isInventory(f.path) || isInventory(f.previous)).map((f) => f.path);
}
/**
 * The restrictions of an untrusted pull request's preview that apply before the run: strict inventory
 * policy (a fork must not adopt what its author points it at), and no change to a Kptfile or inventory
 * file (which decide what inventory, and so which live objects, the preview reads). Returns the notes
 * for the log; throws when the change touches an inventory.
 */
function restrictUntrustedPreview(inputs, who, changed) {
    if (changed.all)
        throw new Error(`refusing to preview a pull request from ${who}: which files it changes is unknown (${changed.notes.join('; ')}), so a change to a Kptfile or inventory file cannot be ruled out`);
    const touched = inventoryChanges(changed.files);
    if (touched.length > 0)
        throw new Error(`refusing to preview a pull request from ${who} that changes a Kptfile or inventory file (${touched.join(', ')}): they decide which inventory, and so which objects in the cluster, the preview reads. A maintainer previews such a change from a branch of this repository`);
    const notes = [
        `pull request from ${who}: previewing with inventory-policy strict and without cluster values (only which fields differ)`,
    ];
    if (inputs.run.inventoryPolicy !== 'strict') {
        notes.push(`inventory-policy ${inputs.run.inventoryPolicy} is ignored for a pull request from ${who}`);
        inputs.run.inventoryPolicy = 'strict';
    }
    return notes;
}
/** A package's result as an untrusted pull request may see it: the preview without cluster values. */
function forUntrustedReaders(r) {
    return r.preview ? { ...r, preview: withoutLiveValues(r.preview) } : r;
}

;// CONCATENATED MODULE: ./src/action/result-json.ts


function packageResultJson(r) {
    const base = { path: r.path, mode: r.mode, outcome: r.outcome, ...(r.error ? { error: r.error } : {}) };
    if (r.preview) {
        return {
            ...base,
            summary: { ...r.preview.summary },
            objects: r.preview.objects.map((o) => ({
                kind: o.id.kind,
                group: o.id.group,
                namespace: o.id.namespace,
                name: o.id.name,
                action: o.action,
                ...(o.reason ? { reason: o.reason } : {}),
                ...(o.blocked ? { blocked: o.blocked } : {}),
                ...(o.changes?.length ? { changes: o.changes } : {}),
                ...(o.source ? { source: o.source } : {}),
            })),
        };
    }
    if (r.status) {
        const summary = {};
        for (const s of r.status)
            summary[s.status] = (summary[s.status] ?? 0) + 1;
        return {
            ...base,
            summary,
            objects: r.status.map((s) => ({
                ...s.id,
                object: (0,object_id/* displayName */.QC)(s.id),
                status: s.status,
                message: s.message,
            })),
        };
    }
    const objects = r.run?.objects ?? [];
    return {
        ...base,
        summary: { ...countOutcomes(objects), blocked: objects.filter(isBlockedOutcome).length },
        objects: objects.map((o) => ({
            kind: o.id.kind,
            group: o.id.group,
            namespace: o.id.namespace,
            name: o.id.name,
            action: o.action,
            ...(o.reconcile ? { reconcile: o.reconcile } : {}),
            ...(o.status ? { status: o.status } : {}),
            ...(o.message ? { message: o.message } : {}),
            ...(isBlockedOutcome(o) ? { blocked: true } : {}),
            ...(o.source ? { source: o.source } : {}),
        })),
    };
}
/** Totals over packages for the `created`, `configured`, ... outputs. */
function totals(results) {
    const t = { created: 0, configured: 0, unchanged: 0, pruned: 0, failed: 0 };
    for (const r of results) {
        const s = r.summary;
        t.created += s.create ?? s.created ?? 0;
        t.configured += s.configure ?? s.configured ?? 0;
        t.unchanged += s.unchanged ?? 0;
        t.pruned += s.prune ?? s.pruned ?? 0;
        t.failed += s.error ?? s.failed ?? 0;
    }
    return t;
}

;// CONCATENATED MODULE: ./src/action/run-outputs.ts



/** A package the loop did not start (an earlier one failed, or the run was cancelled). */
function skippedResult(path, mode, why) {
    return { path, mode, outcome: 'skipped', error: why, notices: [], exitCode: 3 };
}
/** The outputs and the step's result, from the packages' results in their order. */
function concludeRun(results, cancelled) {
    setOutputs(results);
    const bad = results.filter((r) => r.outcome !== 'success');
    if (cancelled)
        toolkit/* setFailed */.C1('cancelled: stopped starting new work; the inventory was saved');
    else if (bad.length > 0) {
        toolkit/* setFailed */.C1(bad.map((r) => `${r.path}: ${r.error ?? describeFailure(r)}`).join('\n'));
    }
}
function describeFailure(r) {
    const objects = r.run?.objects ?? [];
    const notDone = objects.filter((o) => failed(o));
    if (notDone.length > 0) {
        return notDone
            .map((o) => {
            const verb = isBlockedOutcome(o) ? 'blocked' : o.reconcile === 'Timeout' ? 'timed out' : 'failed';
            return `${o.id.kind}/${o.id.name} ${verb}: ${o.message ?? ''}`;
        })
            .join('; ');
    }
    if (r.preview) {
        const { error, blocked } = r.preview.summary;
        const parts = [
            ...(error > blocked ? [`${error - blocked} object(s) rejected by the server`] : []),
            ...(blocked > 0 ? [`${blocked} object(s) blocked: apply would not deploy them`] : []),
        ];
        return parts.join('; ') || 'failed';
    }
    return 'failed';
}
function setOutputs(results) {
    const json = results.map(packageResultJson);
    const t = totals(json);
    toolkit/* setOutput */.uH('created', String(t.created));
    toolkit/* setOutput */.uH('configured', String(t.configured));
    toolkit/* setOutput */.uH('unchanged', String(t.unchanged));
    toolkit/* setOutput */.uH('pruned', String(t.pruned));
    toolkit/* setOutput */.uH('failed', String(t.failed));
    toolkit/* setOutput */.uH('result', JSON.stringify({ packages: json }));
}

;// CONCATENATED MODULE: ./src/action/run-scope.ts
/** A mode, event and input that do not go together: the step fails before any request. */
class UsageError extends Error {
    constructor(message) {
        super(message);
        this.name = 'UsageError';
    }
}
/** True for a push to the repository's default branch: what `mode: auto` applies. */
function run_scope_isDefaultBranchPush(ctx) {
    return (ctx.push !== undefined && ctx.defaultBranch !== undefined && ctx.ref === `refs/heads/${ctx.defaultBranch}`);
}
/** `auto`: preview on pull requests and merge queues, apply on a push to the default branch, else preview. */
function resolveMode(mode, ctx) {
    if (mode !== 'auto')
        return { mode };
    if (ctx.pullRequest || ctx.mergeGroup)
        return { mode: 'preview' };
    if (run_scope_isDefaultBranchPush(ctx))
        return { mode: 'apply' };
    return {
        mode: 'preview',
        note: `mode auto on ${ctx.name} (${ctx.ref}): previewing; only a push to the default branch applies`,
    };
}
/** The scope of a run (see RunScope); throws a UsageError for combinations that must not run. */
function runScope(mode, ctx, packages) {
    const named = packages.length > 0;
    if (ctx.mergeGroup && (mode === 'apply' || mode === 'destroy')) {
        throw new UsageError(`mode: ${mode} on a merge_group event: the merge queue's commit (${ctx.mergeGroup.headSha.slice(0, 7)}) may never land on the branch. ` +
            'Preview in the merge queue (mode: auto or preview) and apply on the push to the default branch');
    }
    if (mode === 'destroy') {
        if (!named) {
            throw new UsageError('mode: destroy needs the packages input (the package directories to destroy, one per line): it never destroys every package');
        }
        return { kind: 'explicit' };
    }
    if (ctx.pullRequest && ctx.action === 'closed') {
        return {
            kind: 'nothing',
            reason: `pull request #${ctx.pullRequest.number} is closed: nothing to do (a merged pull request is applied by the push to its base branch)`,
        };
    }
    if (mode === 'apply' || mode === 'resolve') {
        if (ctx.pullRequest || ctx.mergeGroup)
            return named ? { kind: 'explicit' } : { kind: 'change' };
        if (ctx.push)
            return { kind: 'catch-up' };
        return named ? { kind: 'explicit' } : { kind: 'catch-up' };
    }
    if (named)
        return { kind: 'explicit' };
    if (ctx.pullRequest || ctx.mergeGroup || ctx.push)
        return { kind: 'change' };
    return { kind: 'every' };
}

;// CONCATENATED MODULE: ./src/pipeline/package-concurrency.ts
/** Packages previewed (or their status or drift read) at once when `package-concurrency` asks for fewer. */
const ReadOnlyPackageConcurrency = 8;
/** The modes whose packages change the cluster, and may depend on each other by order. */
const Writing = new Set(['apply', 'destroy', 'rollback']);
function packagesAtOnce(mode, packageConcurrency) {
    return Writing.has(mode) ? packageConcurrency : Math.max(packageConcurrency, ReadOnlyPackageConcurrency);
}
/**
 * Runs `run` for each package under the rule above, starting them in order; `succeeded` says whether a
 * result counts as success. Resolves, in the packages' order, once every started package is done.
 */
async function runPackages(items, rule, name, run, succeeded) {
    const limit = Math.max(1, Math.min(packagesAtOnce(rule.mode, rule.packageConcurrency), items.length));
    const stopOnFailure = Writing.has(rule.mode) && !rule.keepGoing;
    const results = items.map(() => undefined);
    const started = new Set();
    let failedName;
    let next = 0;
    const worker = async () => {
        while (next < items.length && !rule.signal?.aborted && failedName === undefined) {
            const i = next++;
            started.add(i);
            const r = await run(items[i], i);
            results[i] = r;
            if (stopOnFailure && !succeeded(r))
                failedName ??= name(items[i]);
        }
    };
    await Promise.all(Array.from({ length: limit }, worker));
    return items.map((item, i) => {
        if (started.has(i))
            return { item, result: results[i] };
        const why = rule.signal?.aborted ? 'cancelled' : `${failedName} failed`;
        return { item, skipped: `skipped: ${why}` };
    });
}

;// CONCATENATED MODULE: ./src/common/run-outcome.ts
/**
 * The contract's exit codes, and the only place an outcome becomes one: 0 success, 1 fatal error (nothing
 * changed, or cancelled), 3 objects failed, timed out or were blocked.
 */
function run_outcome_exitCodeOf(outcome) {
    if (outcome === 'error')
        return 1;
    return outcome === 'failed' ? 3 : 0;
}

;// CONCATENATED MODULE: ./src/pipeline/deploy-record.ts



const Unreadable = 'deploy history could not be read (no permission on ConfigMaps?): not recorded';
async function readDeployHistory(client, inventory, options) {
    try {
        return { options, entries: await readHistoryEntries(client, inventory) };
    }
    catch {
        return { options, unreadable: Unreadable };
    }
}
/**
 * Records the run next to the inventory (the history read before it is trimmed to `keep`). Nothing for a
 * run refused before its first write, nor when the history could not be read. A destroy that deleted the
 * inventory takes the package's history with it. Returns a notice when the record could not be written.
 */
async function recordDeploy(client, inventory, o) {
    const { run, history } = o;
    if (!history.entries || (o.mode !== 'apply' && o.mode !== 'destroy'))
        return undefined;
    // a run refused before its first write (pre-flight, empty package, lock) changed nothing: no record
    const changedNothing = run.outcome === 'error' && run.objects.every((x) => x.action === 'none');
    // a destroy that deleted the inventory's Namespace took the history with it
    if (changedNothing || run.namespaceDeleted)
        return undefined;
    try {
        if (o.mode === 'destroy' && run.outcome === 'success') {
            await deleteHistory(client, inventory);
            return undefined;
        }
        const record = deployRecord(o.pkg, o.mode, history.options, await history.options.commit, o.startedAt, run);
        await writeHistory(client, inventory, record, history.options.keep, history.entries);
        return undefined;
    }
    catch (err) {
        return o.mode === 'destroy' && run.outcome === 'success'
            ? `deploy history not deleted: ${err.message}`
            : `deploy history not recorded: ${err.message}`;
    }
}
function deployRecord(pkg, mode, h, commit, startedAt, run) {
    const notDone = run.objects
        .filter((x) => failed(x))
        .map((x) => `${(0,object_id/* shortName */.EU)(x.id)}: ${x.message ?? x.reconcile ?? 'failed'}`);
    return {
        package: pkg,
        mode,
        commit,
        ...(h.tree ? { tree: h.tree } : {}),
        trigger: h.trigger,
        startedAt,
        finishedAt: new Date().toISOString(),
        result: run.outcome,
        counts: countOutcomes(run.objects),
        failed: notDone,
        ...(run.error ? { error: run.error } : {}),
    };
}

;// CONCATENATED MODULE: ./src/pipeline/scrubbed-events.ts

/**
 * The run's events with the package's Secret values taken out of every message (a server's refusal can
 * quote a value it was sent), before any front end prints or stores them.
 */
function scrubbedEvents(emit, secretValues) {
    return (event) => {
        const values = secretValues();
        if (values.length === 0)
            return emit(event);
        if ('error' in event && event.error)
            return emit({ ...event, error: redact_scrub(event.error, values) });
        if ('message' in event && event.message)
            return emit({ ...event, message: redact_scrub(event.message, values) });
        emit(event);
    };
}

;// CONCATENATED MODULE: ./src/pipeline/stale-commit.ts

/** Whether `older` is an ancestor of `newer` in the repository; undefined when git cannot tell. */
async function stale_commit_isAncestor(repoDir, older, newer) {
    const ask = async () => {
        try {
            const r = await git(repoDir, ['merge-base', '--is-ancestor', older, newer], { allowFail: true });
            return r.code === 0 ? true : r.code === 1 ? false : undefined;
        }
        catch {
            return undefined; // no git
        }
    };
    let answer = await ask();
    if (answer === undefined) {
        // a shallow checkout may lack the other commit: fetch it and ask again
        const fetch = (args) => git(repoDir, ['fetch', '--no-tags', '--quiet', ...args], { allowFail: true }).catch(() => undefined);
        await fetch(['origin', newer]);
        await fetch(['--unshallow', 'origin']);
        answer = await ask();
    }
    return answer;
}
/**
 * The stale-commit guard: refuses to apply a commit that is an ancestor of the last successfully applied
 * one (a re-run of an old merge would silently roll back and prune newer objects). Returns the reason to
 * refuse, or undefined.
 */
async function staleCommitReason(repoDir, commit, history) {
    const last = history.find((r) => r.mode === 'apply' && r.result === 'success' && r.commit);
    if (!last?.commit || last.commit === commit)
        return undefined;
    if ((await stale_commit_isAncestor(repoDir, commit, last.commit)) !== true)
        return undefined;
    return (`commit ${commit.slice(0, 12)} is older than ${last.commit.slice(0, 12)}, which was applied successfully at ${last.finishedAt} ` +
        `(${last.trigger}): applying it would roll the package back and prune newer objects. Set allow-stale (--allow-stale) to apply it anyway`);
}

;// CONCATENATED MODULE: ./src/pipeline/take-lock.ts




/**
 * The run's lock: a Lease per inventory, in the inventory's namespace. When that namespace does not exist
 * yet and the package declares it, it is created first (kpt's InvAddTask does the same); otherwise the run
 * stops saying so. Taken before the cluster's inventory is read, so a run never reads another run's
 * half-written inventory.
 */
async function takeLock(client, inventory, objects, options, o = {}) {
    const lock = () => acquireInventoryLock(client, inventory, {
        signal: o.signal,
        timeoutMs: options.lockTimeoutMs,
        leaseSeconds: options.lockLeaseSeconds,
        onWait: (holder) => o.onProgress?.(`waiting for another run of this package to finish (lock held by ${holder})`),
    });
    try {
        return await lock();
    }
    catch (err) {
        // the inventory namespace nearly always exists: look at it only when the Lease cannot be created
        if (!(err instanceof api_error/* KubeApiError */.W3 && err.code === 404))
            throw err;
        await ensureInventoryNamespace(client, inventory, objects, options.fieldManager);
        return lock();
    }
}
async function ensureInventoryNamespace(client, inventory, objects, fieldManager) {
    const ns = inventory.namespace;
    const ref = { apiVersion: 'v1', group: '', kind: 'Namespace', namespace: '', name: ns };
    let exists;
    try {
        exists = !!(await client.get(ref));
    }
    catch {
        return; // may not read namespaces (a namespace-scoped user): the lock will tell
    }
    if (exists)
        return;
    const inPackage = objects.find((o) => o.object.kind === 'Namespace' && o.object.apiVersion === 'v1' && o.object.metadata.name === ns);
    if (!inPackage)
        throw new FatalRunError(`inventory namespace "${ns}" does not exist: create it, or add it to the package`);
    await client.apply(withOwningInventory(inPackage.object, inventory.id), { fieldManager });
}

;// CONCATENATED MODULE: ./src/pipeline/run-package.ts












/**
 * One deployable unit in one mode, top to bottom: read the package → (status: read the inventory's
 * objects) → lock (not for a dry run) → the deploy history and the stale-commit guard → the run (the
 * cluster's inventory, the live state, the plan, the engine) → the deploy record → unlock. Never throws
 * for package or cluster problems.
 */
async function runPackage(client, dir, mode, o) {
    const result = { path: dir, mode, outcome: 'success', notices: [], exitCode: 0 };
    let secretValues = [];
    const emit = scrubbedEvents(o.emit ?? (() => { }), () => secretValues);
    const dryRun = mode === 'preview' || (mode === 'destroy' && !!o.dryRun);
    let lock;
    try {
        const prepared = await preparePackage(client, dir, {
            repoRoot: o.repoRoot,
            defaultNamespace: o.defaultNamespace,
            inventoryOnly: mode === 'destroy' || mode === 'status',
        });
        result.prepared = prepared;
        secretValues = packageSecretValues(result);
        result.path = prepared.dir;
        result.notices = prepared.notices;
        const { inventory, objects } = prepared;
        if (mode === 'status') {
            const status = await readPackageStatus(client, inventory, o.options);
            if (!status.found)
                result.notices.push(`no inventory ${inventory.namespace}/${inventory.name} in the cluster: nothing applied yet`);
            return withStatus(result, status.objects);
        }
        const steps = {
            client,
            inventory,
            options: o.options,
            emit,
            signal: o.signal,
            onProgress: o.onProgress,
            dryRun,
        };
        if (!dryRun)
            lock = await takeLock(client, inventory, objects, o.options, o);
        const history = !dryRun && o.history ? await readDeployHistory(client, inventory, o.history) : undefined;
        if (history?.unreadable)
            result.notices.push(history.unreadable);
        const stale = mode === 'apply' && history ? await staleReason(o.repoRoot, o.history, history) : undefined;
        if (stale)
            return withRun(result, refused(emit, stale));
        const startedAt = new Date().toISOString();
        let run;
        if (mode === 'destroy')
            run = await destroySteps(steps);
        else {
            const applied = await applySteps({ ...steps, objects, gate: o.gate });
            run = applied.run;
            if (applied.planCheck)
                result.planCheck = applied.planCheck;
        }
        if (history) {
            const notice = await recordDeploy(client, inventory, {
                mode,
                pkg: prepared.dir,
                startedAt,
                run,
                history,
            });
            if (notice)
                result.notices.push(notice);
        }
        if (mode === 'preview') {
            result.preview = await previewDocument(run, {
                package: prepared.dir,
                allowSkipped: o.options.allowSkipped,
                fieldManager: o.options.fieldManager,
                context: { namespace: inventory.namespace, ...o.previewContext },
            });
        }
        return withRun(result, run);
    }
    catch (err) {
        result.outcome = 'error';
        result.error = err.message;
        if (err instanceof PackageFailure)
            result.packageErrors = err.errors;
        result.exitCode = run_outcome_exitCodeOf('error');
        return result;
    }
    finally {
        await lock?.release();
    }
}
/**
 * The outcome and exit code from the run. A dry run exits as the real run would: 1 when its pre-flight
 * would refuse an object (rejected by the server's dry-run, nothing would change), 3 when objects would be
 * blocked, 0 otherwise.
 */
function withRun(result, run) {
    result.run = run;
    result.outcome = run.outcome;
    result.error = run.error;
    result.exitCode = run_outcome_exitCodeOf(run.outcome);
    const rejected = run.dryRun &&
        run.objects.some((x) => x[DecidedOn]?.decision.action === 'error' && !x[DecidedOn].decision.blocked);
    if (rejected)
        result.exitCode = 1;
    return result;
}
function withStatus(result, status) {
    result.status = status;
    if (status.some((s) => s.status === 'Failed')) {
        result.outcome = 'failed';
        result.exitCode = run_outcome_exitCodeOf('failed');
    }
    return result;
}
async function staleReason(repoRoot, h, history) {
    if (h.allowStale || !history.entries)
        return undefined;
    const commit = await h.commit;
    return commit
        ? staleCommitReason(repoRoot, commit, history.entries.map((e) => e.record))
        : undefined;
}
/** The Secret values of the package's objects: no event, log line, comment or summary may show them. */
function packageSecretValues(result) {
    return collectSecretValues((result.prepared?.objects ?? []).map((x) => x.object));
}
/** A run refused before anything ran: reported once as an error event. */
function refused(emit, message) {
    emit({ type: 'error', error: message });
    return { outcome: 'error', error: message, objects: [], durationMs: 0 };
}

;// CONCATENATED MODULE: ./src/pipeline/removed-package-run.ts



/**
 * A package whose directory is gone, known only by its inventory: what applying it empty would do (every
 * object it owns pruned, through the same walk and prune decision), as a preview document.
 */
async function previewRemoval(client, path, inventory, options) {
    const o = { ...options, prune: true, allowEmptyPrune: true };
    const { run } = await applySteps({
        client,
        inventory,
        options: o,
        objects: [],
        emit: () => { },
        dryRun: true,
    });
    if (!run.dryRun)
        return { error: run.error ?? 'the preview failed' };
    return await previewDocument(run, {
        package: path,
        allowSkipped: o.allowSkipped,
        fieldManager: o.fieldManager,
        context: { namespace: inventory.namespace },
    });
}
/** Destroys what an inventory owns, under its lock (a package whose directory is gone). */
async function destroyInventory(client, inventory, options, emit, signal) {
    const lock = await takeLock(client, inventory, [], options, { signal });
    try {
        return await destroySteps({ client, inventory, options, emit, signal, dryRun: false });
    }
    finally {
        await lock.release();
    }
}

;// CONCATENATED MODULE: ./src/action/removed-package.ts



/**
 * A package whose directory the change deleted: its inventory info comes from the base commit (or, when
 * catch-up found it through the watermark, from the watermark). Preview
 * says what would be pruned; apply destroys it only when `destroy-removed-packages` allows, else fails.
 */
async function runRemovedPackage(client, unit, mode, o) {
    const result = { path: unit.path, mode, outcome: 'success', notices: [], exitCode: 0 };
    const fail = (error) => ({
        ...result,
        outcome: 'error',
        error,
        exitCode: run_outcome_exitCodeOf('error'),
    });
    let inventory = unit.inventory;
    if (!inventory) {
        if (!unit.baseCommit)
            return fail(`package ${unit.path} was deleted, but the base commit to read its inventory from is unknown`);
        const info = await readInventoryAtCommit(o.repoRoot, unit.baseCommit, unit.path);
        if (!info.inventory)
            return fail(`package ${unit.path} was deleted; no inventory info at ${unit.baseCommit.slice(0, 7)}: nothing to prune`);
        inventory = info.inventory;
    }
    if (mode === 'preview') {
        const doc = await previewRemoval(client, unit.path, inventory, o.options);
        if ('error' in doc)
            return fail(doc.error);
        result.preview = doc;
        result.notices.push(`package ${unit.path} is removed by this change: merging would prune ${doc.summary.prune} object(s)${o.destroyRemovedPackages ? '' : ' (only with destroy-removed-packages: true)'}`);
        return result;
    }
    if (!o.destroyRemovedPackages) {
        return fail(`package ${unit.path} was deleted from the repository, but its objects are still in the cluster (inventory ${inventory.namespace}/${inventory.name}). ` +
            'Set destroy-removed-packages: true to delete them, or run mode: destroy from the previous commit.');
    }
    const run = await destroyInventory(client, inventory, o.options, o.emit).catch((err) => ({ outcome: 'error', error: err.message, objects: [], durationMs: 0 }));
    return { ...result, mode, run, outcome: run.outcome, error: run.error, exitCode: run_outcome_exitCodeOf(run.outcome) };
}

;// CONCATENATED MODULE: ./src/report/apply-summary-objects.ts


/**
 * The job summary's rows for a run's objects: the final state (`Timeout` when the wait timed out, else the
 * last kstatus), the explanation of a blocked skip, and whether the object failed, as `failed` decides it
 * (blocked objects are listed apart, so they are not counted as failed here).
 */
function applySummaryObjects(objects) {
    return objects.map((o) => ({
        id: o.id,
        action: o.action,
        status: o.reconcile === 'Timeout'
            ? 'Timeout'
            : (o.status ?? (o.reconcile === 'Skipped' ? 'Skipped' : o.action)),
        message: isBlockedOutcome(o) && o.skip ? blockedExplanation(o.skip) : withoutStatus(o),
        failed: failed(o, { allowSkipped: true }),
        blocked: isBlockedOutcome(o),
        source: o.source,
        wave: o.wave,
        durationMs: o.readyAfterMs,
    }));
}
/** A failed wait's message (`Failed: Progress deadline exceeded`) without the status the row already shows. */
function withoutStatus(o) {
    const prefix = `${o.status}: `;
    return o.reconcile === 'Failed' && o.message?.startsWith(prefix)
        ? o.message.slice(prefix.length)
        : o.message;
}

;// CONCATENATED MODULE: ./src/report/events-text.ts




const PHASE = {
    Apply: 'apply phase',
    Prune: 'prune phase',
    Delete: 'delete phase',
    Wait: 'reconcile phase',
    Inventory: 'inventory update',
};
/**
 * One event as kpt prints it, without the newline; undefined for events kpt does not print (init, error,
 * and status events unless asked for). kpt prints a fatal error itself, as `error: <message>` on stderr.
 */
function renderEventText(event, opts = {}) {
    const line = formatEvent(event, opts);
    return line !== undefined && opts.secretValues ? redact_scrub(line, opts.secretValues) : line;
}
function formatEvent(event, opts) {
    switch (event.type) {
        case 'group':
            return `${PHASE[event.action]} ${event.status.toLowerCase()}`;
        case 'apply':
        case 'prune':
        case 'delete': {
            const line = `${(0,object_id/* displayName */.QC)(event.id)} ${event.type} ${event.status.toLowerCase()}`;
            return event.error === undefined ? line : `${line}: ${event.error}`;
        }
        case 'wait':
            return `${(0,object_id/* displayName */.QC)(event.id)} reconcile ${event.status.toLowerCase()}`;
        case 'status':
            return opts.showStatusEvents
                ? `${(0,object_id/* displayName */.QC)(event.id)} is ${event.status}: ${event.message}`
                : undefined;
        default:
            return undefined;
    }
}
/**
 * The closing lines kpt prints after the last event: one line per action that counted anything, in the
 * order apply, prune, delete, reconcile.
 */
function renderSummaryText(stats) {
    const lines = [];
    const actuations = [
        ['apply', stats.apply],
        ['prune', stats.prune],
        ['delete', stats.delete],
    ];
    for (const [name, c] of actuations) {
        if (isZero(c))
            continue;
        lines.push(`${name} result: ${attempted(c)} attempted, ${c.successful} successful, ${c.skipped} skipped, ${c.failed} failed`);
    }
    const w = stats.wait;
    if (!isZero(w)) {
        lines.push(`reconcile result: ${attempted(w)} attempted, ${w.successful} successful, ${w.skipped} skipped, ${w.failed} failed, ${w.timeout} timed out`);
    }
    return lines;
}
/**
 * A whole run as kpt prints it: the events, then the summary lines; a fatal error event ends the output
 * there without a summary (cli-utils' list printer returns on it).
 */
function renderEventsText(events, opts = {}) {
    const stats = new EventStats();
    const lines = [];
    for (const event of events) {
        stats.add(event);
        if (event.type === 'error') {
            const error = opts.secretValues ? scrub(event.error, opts.secretValues) : event.error;
            return { text: joinLines(lines), stats, exitCode: exitCodeOf('error'), error };
        }
        const line = renderEventText(event, opts);
        if (line !== undefined)
            lines.push(line);
    }
    lines.push(...renderSummaryText(stats));
    return { text: joinLines(lines), stats, exitCode: exitCodeOf(outcomeOf(stats)) };
}
function joinLines(lines) {
    return lines.map((line) => `${line}\n`).join('');
}

;// CONCATENATED MODULE: ./src/report/job-summary.ts





/** GitHub refuses a step's job summary above 1 MiB; stay a little under it. */
const JOB_SUMMARY_LIMIT = 1_000_000;
/**
 * The job summary for a preview: the PR comment's content without the marker and with a far larger
 * size budget, so it can hold the diffs a comment had to cut.
 */
function renderPreviewJobSummary(doc) {
    return (0,preview_markdown/* renderPreviewMarkdown */.mV)(doc, {
        marker: false,
        maxLength: JOB_SUMMARY_LIMIT,
        limitName: "GitHub's job summary limit",
        fullTextHint: 'run `kpt-live preview` for the full diff',
    });
}
const ACTION_ORDER = ['created', 'configured', 'unchanged', 'pruned', 'deleted', 'skipped', 'failed'];
const GONE = new Set(['pruned', 'deleted']);
const isFailed = (obj) => !!obj.failed;
function counts(objects) {
    const byAction = new Map();
    for (const obj of objects)
        byAction.set(obj.action, (byAction.get(obj.action) ?? 0) + 1);
    const known = ACTION_ORDER.filter((a) => byAction.has(a));
    const other = [...byAction.keys()].filter((a) => !ACTION_ORDER.includes(a)).sort();
    return [...known, ...other].map((a) => `${byAction.get(a)} ${a}`).join(', ');
}
function headline(input) {
    const pkg = (0,markdown/* code */.aY)(input.package);
    const failed = input.objects.find(isFailed);
    const blocked = input.objects.filter((obj) => obj.blocked);
    if (input.outcome === 'failure' || failed) {
        if (!failed && blocked.length > 0) {
            const names = blocked.slice(0, 5).map((obj) => (0,markdown/* code */.aY)((0,object_id/* shortName */.EU)(obj.id)));
            const more = blocked.length > 5 ? ` and ${blocked.length - 5} more` : '';
            return `### ❌ ${pkg}: ${blocked.length} object(s) blocked, not deployed: ${names.join(', ')}${more}`;
        }
        if (failed) {
            const after = failed.durationMs !== undefined ? ` after ${(0,duration/* formatDuration */.a)(failed.durationMs)}` : '';
            const why = failed.message ? `: ${(0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(failed.message, 300))}` : '';
            return `### ❌ ${pkg}: ${(0,markdown/* code */.aY)((0,object_id/* shortName */.EU)(failed.id))} ${failed.status}${after}${why}`;
        }
        return `### ❌ ${pkg}: ${(0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(input.error ?? 'the run failed', 300))}`;
    }
    const live = input.objects.filter((obj) => !GONE.has(obj.action));
    const current = live.filter((obj) => obj.status === 'Current').length;
    const state = current === live.length ? `all ${live.length} Current` : `${current} of ${live.length} Current`;
    const what = counts(input.objects);
    return `### ✅ ${pkg} applied in ${(0,duration/* formatDuration */.a)(input.durationMs)}: ${what ? `${what}, ` : ''}${state}`;
}
function waveTable(objects) {
    const lines = ['| object | action | status | time | message | source |', '|---|---|---|---|---|---|'];
    for (const obj of objects) {
        const time = obj.durationMs !== undefined ? (0,duration/* formatDuration */.a)(obj.durationMs) : '';
        const source = obj.source ? (0,markdown/* code */.aY)(`${obj.source.file}:${obj.source.line}`) : '';
        const message = (0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(obj.message ?? '', 200));
        const id = obj.id.namespace ? `${obj.id.namespace}/${(0,object_id/* shortName */.EU)(obj.id)}` : (0,object_id/* shortName */.EU)(obj.id);
        lines.push(`| ${(0,markdown/* cell */.Hn)((0,markdown/* code */.aY)(id))} | ${obj.action} | ${obj.status} | ${time} | ${(0,markdown/* cell */.Hn)(message)} | ${(0,markdown/* cell */.Hn)(source)} |`);
    }
    return lines;
}
function failureSection(objects) {
    const lines = [];
    for (const obj of objects.filter(isFailed)) {
        const source = obj.source ? ` (${(0,markdown/* code */.aY)(`${obj.source.file}:${obj.source.line}`)})` : '';
        lines.push(`#### ❌ ${(0,markdown/* code */.aY)((0,object_id/* shortName */.EU)(obj.id))}${source}`, '');
        lines.push(`- ${obj.status}${obj.message ? `: ${(0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(obj.message, 1000))}` : ''}`);
        for (const condition of obj.conditions ?? [])
            lines.push(`- ${(0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(condition, 500))}`);
        lines.push('');
    }
    const blocked = objects.filter((obj) => obj.blocked);
    if (blocked.length > 0) {
        lines.push('**Not deployed (blocked):**', '');
        for (const obj of blocked) {
            const source = obj.source ? ` (${(0,markdown/* code */.aY)(`${obj.source.file}:${obj.source.line}`)})` : '';
            lines.push(`- ⛔ ${(0,markdown/* code */.aY)((0,object_id/* shortName */.EU)(obj.id))}${source}: ${(0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(obj.message ?? '', 1000))}`);
        }
    }
    return lines;
}
/**
 * The job summary after an apply or destroy: a one-line verdict a reader gets in five seconds, then one
 * table per wave (object, action, final status, time to Current, message, file), then for a failure each
 * failed object's conditions and what was not applied because of it.
 */
function renderApplyJobSummary(input, opts = {}) {
    const blocks = [[headline(input)]];
    if (input.error && input.objects.some(isFailed))
        blocks.push([`> ${(0,markdown/* escapeText */.X1)((0,markdown/* clip */.$Q)(input.error, 1000))}`]);
    const waves = [...new Set(input.objects.map((obj) => obj.wave ?? 0))].sort((a, b) => a - b);
    for (const wave of waves) {
        const objects = input.objects.filter((obj) => (obj.wave ?? 0) === wave);
        const title = wave === 0 ? 'Other objects' : `Wave ${wave}`;
        blocks.push(waves.length > 1 ? [`**${title}**`, '', ...waveTable(objects)] : waveTable(objects));
    }
    const failures = failureSection(input.objects);
    if (failures.length > 0)
        blocks.push(failures);
    const text = `${blocks
        .map((block) => block.join('\n'))
        .join('\n\n')
        .trimEnd()}\n`;
    return opts.secretValues ? redact_scrub(text, opts.secretValues) : text;
}

;// CONCATENATED MODULE: ./src/report/preview-text.ts


const SYMBOL = {
    create: '+',
    configure: '~',
    replace: '±',
    prune: '-',
    orphan: '-',
    skip: '!',
    error: 'x',
    unchanged: ' ',
};
const ANSI = {
    red: '\u001b[31m',
    green: '\u001b[32m',
    yellow: '\u001b[33m',
    dim: '\u001b[2m',
    reset: '\u001b[0m',
};
const ACTION_COLOUR = {
    create: 'green',
    configure: 'yellow',
    replace: 'yellow',
    prune: 'red',
    orphan: 'yellow',
    skip: 'yellow',
    error: 'red',
    unchanged: 'dim',
};
/**
 * The preview as plain text for a terminal or a log. Same content as the PR comment without the markup,
 * and never shortened: a terminal has no size limit.
 */
function renderPreviewText(doc, opts = {}) {
    const paint = (colour, text) => (opts.color ? `${ANSI[colour]}${text}${ANSI.reset}` : text);
    const where = [
        doc.context.cluster && `cluster ${doc.context.cluster}`,
        doc.context.namespace && `namespace ${doc.context.namespace}`,
    ]
        .filter(Boolean)
        .join(', ');
    const title = `Preview of ${doc.package}${where ? ` (${where})` : ''}`;
    if (!(0,preview_words/* hasChanges */.ik)(doc.summary)) {
        const n = doc.summary.unchanged;
        return `${title}: no changes${n > 0 ? ` (${n} unchanged)` : ''}\n`;
    }
    const lines = [title, (0,preview_words/* countPhrases */.GN)(doc.summary).join(', '), ''];
    const objects = (0,preview_words/* listedObjects */.mW)(doc);
    const width = Math.min(50, Math.max(...objects.map((obj) => (0,preview_words/* objectName */.Hd)(obj, doc).length)));
    for (const obj of objects) {
        const colour = ACTION_COLOUR[obj.action];
        const name = (0,preview_words/* objectName */.Hd)(obj, doc).padEnd(width);
        lines.push(paint(colour, `${SYMBOL[obj.action]} ${name}  ${(0,preview_words/* actionWords */.Iv)(obj)}`));
        for (const change of obj.changes ?? []) {
            const path = change.redacted ? (0,preview_words/* displayPath */.Gt)(change) : change.path;
            lines.push(`    ${path} ${(0,preview_words/* changeWords */.mF)(change)}`);
        }
        for (const note of obj.ownership ?? [])
            lines.push(`    owner: ${note}`);
        if (opts.diffs !== false && obj.diff) {
            const source = obj.source ? `  ${obj.source.file}:${obj.source.line}` : '';
            lines.push(paint('dim', `    --- ${(0,preview_words/* objectName */.Hd)(obj, doc)} (${obj.apiVersion})${source}`));
            for (const line of obj.diff.split('\n')) {
                const colour = line.startsWith('+')
                    ? 'green'
                    : line.startsWith('-')
                        ? 'red'
                        : undefined;
                lines.push(colour ? paint(colour, `    ${line}`) : `    ${line}`);
            }
        }
    }
    const c = doc.context;
    const footer = [`field manager ${c.fieldManager}`];
    if (c.commit)
        footer.unshift(`at ${c.commit.slice(0, 7)}`);
    if (c.durationMs !== undefined)
        footer.push((0,duration/* formatDuration */.a)(c.durationMs));
    lines.push('', paint('dim', `Server-side dry-run ${footer.join(', ')}`));
    return `${lines.join('\n')}\n`;
}

;// CONCATENATED MODULE: ./src/action/report-package.ts










/** Streams engine events into the log as kpt's event lines (the pipeline took the Secret values out). */
function eventLogger(log = (line) => toolkit/* info */.pq(line)) {
    return (event) => {
        const line = renderEventText(event);
        if (line !== undefined)
            log(line);
    };
}
/** Job summary section, annotations at file:line, and log lines for one package's result. */
function reportPackage(r, secretValues) {
    for (const n of r.notices)
        toolkit/* notice */.lm(n, { title: r.path });
    for (const e of r.packageErrors ?? []) {
        toolkit/* error */.z3(redact_scrub(formatPackageError(e), secretValues), {
            title: `kpt-live-action: ${r.path}`,
            file: e.file,
            startLine: e.line,
        });
    }
    if (r.error && !r.packageErrors)
        toolkit/* error */.z3(redact_scrub(r.error, secretValues), { title: `kpt-live-action: ${r.path}` });
    if (r.preview) {
        toolkit/* info */.pq(renderPreviewText(r.preview));
        return renderPreviewJobSummary(r.preview);
    }
    if (r.status) {
        for (const s of r.status)
            toolkit/* info */.pq(`${(0,object_id/* shortName */.EU)(s.id)} is ${s.status}: ${s.message}`);
        const rows = r.status.map((s) => `| \`${(0,object_id/* shortName */.EU)(s.id)}\` | ${s.status} | ${s.message.replaceAll('|', '\\|')} |`);
        return [
            `### Status · \`${r.path}\``,
            '',
            '| object | status | message |',
            '|---|---|---|',
            ...rows,
            '',
        ].join('\n');
    }
    const objects = r.run?.objects ?? [];
    for (const o of objects) {
        if (isBlockedOutcome(o) && o.skip) {
            // an error when it fails the step, a warning when allow-skipped lets it pass
            const annotate = r.outcome === 'success' ? toolkit/* warning */.$e : toolkit/* error */.z3;
            annotate(redact_scrub(`${(0,object_id/* shortName */.EU)(o.id)} was not deployed: ${blockedExplanation(o.skip)}`, secretValues), {
                title: `kpt-live-action: ${(0,object_id/* shortName */.EU)(o.id)} blocked`,
                file: o.source?.file,
                startLine: o.source?.line,
            });
        }
        else if (failed(o)) {
            toolkit/* error */.z3(redact_scrub(`${(0,object_id/* shortName */.EU)(o.id)}: ${o.message ?? o.reconcile ?? 'failed'}`, secretValues), {
                title: `kpt-live-action: ${(0,object_id/* shortName */.EU)(o.id)} ${o.reconcile === 'Timeout' ? 'timed out' : 'failed'}`,
                file: o.source?.file,
                startLine: o.source?.line,
            });
        }
    }
    return renderApplyJobSummary({
        package: r.path,
        outcome: r.outcome === 'success' ? 'success' : 'failure',
        durationMs: r.run?.durationMs ?? 0,
        error: r.error,
        objects: applySummaryObjects(objects),
    }, { secretValues });
}

;// CONCATENATED MODULE: ./src/action/run-units.ts







/**
 * Runs the selected packages by the package loop's rule (src/pipeline/package-concurrency.ts): each one's
 * run, log group, job summary section, PR comment and Applied section; a package the loop did not start is
 * reported skipped. GitHub is asked before a package's run (the reviewed plan) and told after it, never
 * while its lock is held. Returns every package's result, in the packages' order.
 */
async function runUnits(units, c) {
    const { inputs, mode, feedback } = c;
    const atOnce = Math.min(packagesAtOnce(mode, inputs.packageConcurrency), units.length);
    if (atOnce > 1)
        toolkit/* info */.pq(`${mode}: ${units.length} packages, up to ${atOnce} at once (one connection pool, one discovery)`);
    const results = [];
    let reported = Promise.resolve();
    const runUnit = async (unit) => {
        // one package at a time logs as it goes; several at once keep each package's lines together
        const lines = atOnce > 1 ? [] : undefined;
        const log = (line) => (lines ? lines.push(line) : toolkit/* info */.pq(line));
        const gate = mode === 'apply' && !unit.removed ? await feedback?.gate(unit.path) : undefined;
        if (!lines)
            toolkit/* startGroup */.Oh(`${mode} ${unit.path}`);
        let result = await runOne(unit, c, eventLogger(log), log, gate);
        if (c.untrusted)
            result = forUntrustedReaders(result);
        if (lines) {
            toolkit/* startGroup */.Oh(`${mode} ${unit.path}`);
            for (const line of lines)
                toolkit/* info */.pq(line);
        }
        toolkit/* endGroup */.N4();
        feedback?.verdict(unit.path, result.planCheck);
        const secrets = packageSecretValues(result);
        const summary = reportPackage(result, secrets) + (feedback?.summarySection(unit.path) ?? '');
        results.push(result);
        // the PR comment goes out with other packages' (writes are spaced by the request policy); the job
        // summary section and the apply feedback one package at a time, in the order packages finish
        const comment = result.preview && mode === 'preview' ? c.comments.onPreview(result, unit.tree) : Promise.resolve();
        reported = reported.then(async () => {
            toolkit/* appendSummary */.fe(summary);
            if (feedback && mode === 'apply')
                await feedback.report(result, secrets);
        });
        await Promise.all([comment, reported]);
        return result;
    };
    const rule = {
        mode,
        packageConcurrency: inputs.packageConcurrency,
        keepGoing: inputs.keepGoing,
        signal: c.signal,
    };
    const entries = await runPackages(units, rule, (u) => u.path, runUnit, (r) => r.outcome === 'success');
    for (const e of entries) {
        if (!('skipped' in e))
            continue;
        toolkit/* error */.z3(`${e.item.path}: ${e.skipped}`, { title: `kpt-live-action: ${e.item.path} not run` });
        const skipped = skippedResult(e.item.path, mode, e.skipped);
        results.push(skipped);
        if (feedback && mode === 'apply')
            await feedback.report(skipped, []);
    }
    // the packages' order, whichever finished first
    const order = new Map(units.map((u, i) => [u.path, i]));
    return results.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
}
function runOne(unit, c, emit, log, gate) {
    const { inputs, ctx, mode, conn } = c;
    if (unit.removed && (mode === 'preview' || mode === 'apply')) {
        return runRemovedPackage(conn.client, unit, mode, {
            repoRoot: c.repoRoot,
            options: inputs.run,
            destroyRemovedPackages: inputs.destroyRemovedPackages,
            emit,
        });
    }
    return runPackage(conn.client, unit.path, mode, {
        repoRoot: c.repoRoot,
        defaultNamespace: inputs.namespace || conn.access.namespace,
        options: inputs.run,
        emit,
        signal: c.signal,
        history: {
            commit: ctx.sha,
            ...(unit.tree ? { tree: unit.tree } : {}),
            trigger: ctx.runUrl,
            keep: inputs.historyLimit,
            allowStale: inputs.allowStale,
        },
        onProgress: log,
        gate,
        previewContext: {
            cluster: conn.access.clusterName,
            commit: ctx.pullRequest?.headSha ?? ctx.mergeGroup?.headSha ?? ctx.sha,
            targetBranch: ctx.defaultBranch,
            runUrl: ctx.runUrl,
        },
    });
}

;// CONCATENATED MODULE: ./src/changes/tree-hash.ts



/**
 * The git tree object of a package directory at a commit: one hash that changes whenever anything under
 * the directory changes (subpackages included) and stays the same when only other directories change.
 * Comparing it is how catch-up tells whether the cluster already runs what a commit says for a package,
 * and how the apply tells whether a pull request reviewed exactly the tree being applied.
 */
/** `<commit>:<dir>` as git names it (`<commit>^{tree}` for the repository root). */
const spec = (commit, dir) => (dir === '.' ? `${commit}^{tree}` : `${commit}:${dir}`);
/**
 * The tree hash of each of `dirs` at `commit` (undefined for a directory that does not exist there, or
 * when git cannot read the commit). One `git cat-file --batch-check` for all of them: a monorepo of
 * hundreds of packages costs one process. Works in a depth-1 checkout (trees of the checked-out commit
 * are there); `fetch` first fetches a commit the checkout lacks.
 */
async function packageTrees(repoDir, commit, dirs, opts = {}) {
    const out = new Map(dirs.map((d) => [d, undefined]));
    if (dirs.length === 0)
        return out;
    if (opts.fetch && !(await ensureCommits(repoDir, [commit], opts).catch(() => ({ ok: false }))).ok)
        return out;
    // one line per directory; a path with a newline cannot be asked this way (and is no package path)
    const asked = dirs.filter((d) => !d.includes('\n'));
    // git must be there to read what it is sent (else writing to it fails with EPIPE)
    const known = await git(repoDir, ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`], {
        allowFail: true,
    }).catch(() => undefined);
    if (known?.code !== 0)
        return out;
    let stdout;
    try {
        const r = await (0,exec/* getExecOutput */.H)('git', ['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
            cwd: repoDir,
            env: gitEnv(),
            silent: true,
            ignoreReturnCode: true,
            input: Buffer.from(asked.map((d) => `${spec(commit, d)}\n`).join('')),
        });
        if (r.exitCode !== 0)
            return out;
        stdout = r.stdout;
    }
    catch {
        return out; // no git, or not a repository: nothing is known
    }
    const lines = stdout.split('\n');
    asked.forEach((dir, i) => {
        const m = lines[i]?.match(/^([0-9a-f]{40,64}) tree$/);
        if (m)
            out.set(dir, m[1]);
    });
    return out;
}
/** The tree hash of one directory at `commit` (see packageTrees). */
async function packageTree(repoDir, commit, dir, opts = {}) {
    return (await packageTrees(repoDir, commit, [dir], opts)).get(dir);
}

;// CONCATENATED MODULE: ./src/changes/catch-up.ts
const catch_up_short = (sha) => (sha ? sha.slice(0, 7) : 'an unknown commit');
const isSuccess = (r) => r.result === 'success';
/** What the cluster runs: the newest successful apply or rollback. */
const running = (records) => records.find((r) => r.mode !== 'destroy' && isSuccess(r));
/** A hold is released by a successful apply of the package's content (a rollback does not release it). */
const lastApply = (records) => records.find((r) => r.mode === 'apply' && isSuccess(r));
/** Why a unit's tree is held (and the commit whose apply of it failed), or undefined. */
function holdOf(path, records, tree, mark) {
    const released = lastApply(records)?.startedAt ?? '';
    const failed = records.find((r) => r.mode === 'apply' && !isSuccess(r) && r.tree === tree && r.startedAt > released);
    const retry = `not retried until ${path} changes or a workflow_dispatch run names it in \`packages\``;
    if (failed) {
        const rolledBack = records.some((r) => r.mode === 'rollback' && r.startedAt > failed.startedAt);
        const reason = `tree of ${catch_up_short(failed.commit)} failed${rolledBack ? ' and was rolled back' : ''}; ${retry}`;
        return { reason, commit: failed.commit };
    }
    if (mark && mark.tree === tree && mark.at > released)
        return { reason: `tree of ${catch_up_short(mark.commit)} failed (${mark.reason}); ${retry}`, commit: mark.commit };
    return undefined;
}
function decidePresent(u, input) {
    const touched = input.touched !== 'all' && input.touched.has(u.path);
    const wm = input.watermark;
    const push = input.push ? `${catch_up_short(input.push.before)}..${catch_up_short(input.push.after)}` : '';
    if (u.records === undefined) {
        const why = u.unreadable ?? 'its deploy history could not be read (no permission on ConfigMaps?)';
        if (touched)
            return { to: 'run', reason: `changed by this push (${push}); ${why}` };
        if (input.touched === 'all')
            return { to: 'run', reason: `${why}, so whether the cluster runs this tree is unknown` };
        return { to: 'skipped', reason: `${why}, and the push did not touch it` };
    }
    const now = running(u.records);
    if (touched)
        return { to: 'run', reason: `changed by this push (${push})`, base: now };
    if (now !== undefined && (u.tree && now.tree ? now.tree === u.tree : now.commit === input.head))
        return { to: 'upToDate', reason: `${catch_up_short(now.commit)} applied here` };
    const held = u.tree ? holdOf(u.path, u.records, u.tree, input.held?.[u.path]) : undefined;
    // re-running the failed job of a push (the same pushed commit) is how a person retries it
    if (held?.commit && held.commit === input.push?.after)
        return {
            to: 'run',
            reason: `a re-run of the push of ${catch_up_short(held.commit)}, whose apply of this tree failed`,
        };
    if (held)
        return { to: 'held', reason: held.reason };
    if (now) {
        const tail = now.tree || !u.tree ? '' : ' (its tree was not recorded and git could not read that commit)';
        return {
            to: 'run',
            reason: `changed since ${catch_up_short(now.commit)}, the last commit applied here${tail}`,
            base: now,
        };
    }
    if (u.records.length > 0)
        return {
            to: 'run',
            reason: `never applied successfully here (the last attempt, ${catch_up_short(u.records[0].commit)}, failed)`,
        };
    if (wm && !wm.units.has(u.path))
        return {
            to: 'run',
            reason: wm.commit
                ? `added since ${catch_up_short(wm.commit)}, the last commit fully applied here`
                : 'new here (no deploy record, not in the watermark)',
        };
    if (wm)
        return {
            to: 'skipped',
            reason: 'no deploy record, though catch-up knew it (destroyed since, or deployed by other means); a workflow_dispatch apply that names it in `packages` applies it',
        };
    if (input.touched === 'all')
        return { to: 'run', reason: 'no deploy record here yet' };
    return {
        to: 'skipped',
        reason: 'no deploy record and no watermark yet, and the push did not touch it; a workflow_dispatch apply applies it',
    };
}
function decideGone(g, input) {
    const touched = input.touched !== 'all' && input.touched.has(g.path);
    if (touched)
        return { to: 'run', reason: 'deleted by this push' };
    if (g.records === undefined)
        return {
            to: 'skipped',
            reason: `deleted since ${catch_up_short(g.baseCommit)}, but its deploy history could not be read`,
        };
    const newest = g.records[0];
    if (!newest)
        return { to: 'skipped', reason: 'deleted, and nothing of it is recorded in the cluster', forget: true };
    const mark = input.held?.[g.path];
    const released = mark?.removalRefused && input.destroyRemovedPackages;
    if (mark && mark.tree === '' && mark.at > newest.startedAt && !released)
        return {
            to: 'held',
            reason: `its deletion at ${catch_up_short(mark.commit)} was not applied (${mark.reason}); not retried until destroy-removed-packages is on or its objects are destroyed`,
        };
    if (newest.mode === 'destroy' && !isSuccess(newest))
        return {
            to: 'held',
            reason: `its destroy at ${catch_up_short(newest.commit)} failed; not retried by later pushes`,
        };
    return {
        to: 'run',
        reason: g.baseCommit
            ? `deleted since ${catch_up_short(g.baseCommit)}, the last commit fully applied here`
            : 'deleted from the repository',
    };
}
/** The packages an apply runs, with a reason for each, and those it leaves and why. */
function catchUp(input) {
    const out = { run: [], held: [], upToDate: [], skipped: [], forget: [] };
    const base = (r) => r?.commit ?? input.watermark?.commit ?? input.push?.before;
    for (const u of input.units) {
        const d = decidePresent(u, input);
        if (d.to === 'run')
            out.run.push({ path: u.path, removed: false, reason: d.reason, base: base(d.base), tree: u.tree });
        else
            out[d.to].push({ path: u.path, reason: d.reason });
    }
    const present = new Set(input.units.map((u) => u.path));
    for (const g of input.gone) {
        if (present.has(g.path))
            continue;
        const d = decideGone(g, input);
        if (d.to === 'run')
            out.run.push({
                path: g.path,
                removed: true,
                reason: d.reason,
                base: g.records?.[0]?.commit ?? g.baseCommit,
                baseCommit: g.baseCommit,
                ...(g.inventory ? { inventory: g.inventory } : {}),
            });
        else
            out[d.to].push({ path: g.path, reason: d.reason });
        if (d.to !== 'run' && d.forget)
            out.forget.push(g.path);
    }
    const byPath = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    out.run.sort(byPath);
    out.held.sort(byPath);
    out.upToDate.sort(byPath);
    out.skipped.sort(byPath);
    return out;
}

;// CONCATENATED MODULE: ./src/changes/package-filter.ts


const package_filter_GLOB_CHARS = /[*?[]/;
/**
 * The `packages` input as a filter (on push: over the catch-up set). Each line resolves as an explicit
 * package list does (a package directory, a directory inside a unit, or a glob over package
 * directories), and may also name a unit deleted from the checkout (`gone`). A line that matches
 * nothing, present or gone, is an error naming it, so a typo never silently filters everything out.
 */
async function resolvePackageFilter(repoRoot, lines, gone) {
    const units = new Set();
    const goneMatched = new Set();
    const notes = [];
    const problems = [];
    for (const line of lines) {
        const entry = external_node_path_default().posix.normalize(line.replace(/\\/g, '/')).replace(/\/+$/, '') || '.';
        let hits = [];
        try {
            const re = package_filter_GLOB_CHARS.test(entry) ? globToRegExp(entry) : undefined;
            hits = gone.filter((g) => (re ? re.test(g) : g === entry || g.startsWith(`${entry}/`)));
        }
        catch {
            // a bad glob: resolveExplicitPackages says what is wrong with it
        }
        for (const g of hits)
            goneMatched.add(g);
        try {
            const r = await resolveExplicitPackages(repoRoot, [line]);
            for (const p of r.paths)
                units.add(p);
            notes.push(...r.notes);
        }
        catch (err) {
            if (hits.length === 0)
                problems.push(err.message.replace(/^input "packages": /, ''));
        }
    }
    if (problems.length)
        throw new Error(`input "packages": ${problems.join('; ')}`);
    return { units, gone: goneMatched, notes: [...new Set(notes)] };
}

;// CONCATENATED MODULE: ./src/inventory/watermark.ts


/**
 * The watermark of a branch's apply jobs in one cluster: a ConfigMap, in the job's default namespace,
 * keyed by repository, branch and `comment-key` (so a `mode: resolve` job and the matrix jobs it fans out
 * to, each applying one package, share it). It lists the packages catch-up knows (present when it was
 * first written, or applied successfully since), so a package with no deploy record is known to be new
 * (not listed: it runs) or not (listed, since destroyed or deployed otherwise: it does not), and a listed
 * package gone from the checkout was deleted. It also holds the packages whose last run failed before any
 * write (no deploy record says so), so catch-up does not retry them until they change, and the last
 * commit a run applied completely.
 */
const WatermarkLabel = 'kpt-live-action.dev/watermark';
const Annotation = {
    repository: 'kpt-live-action.dev/repository',
    branch: 'kpt-live-action.dev/branch',
    commentKey: 'kpt-live-action.dev/comment-key',
};
/** `kpt-live-watermark-<12 hex>`: the key hashed, so any branch name or comment key fits a name. */
function watermarkName(key) {
    const text = [key.repository, key.branch, key.commentKey].join('\n');
    return `kpt-live-watermark-${(0,external_node_crypto_.createHash)('sha256').update(text).digest('hex').slice(0, 12)}`;
}
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The watermark a ConfigMap holds; undefined when its data is not one (left alone, never overwritten blindly). */
function parseWatermark(cm) {
    const text = isRecord(cm.data) ? cm.data.watermark : undefined;
    if (typeof text !== 'string')
        return undefined;
    let v;
    try {
        v = JSON.parse(text);
    }
    catch {
        return undefined;
    }
    if (!isRecord(v) || !isRecord(v.units) || !isRecord(v.held))
        return undefined;
    if (v.commit !== undefined && typeof v.commit !== 'string')
        return undefined;
    return v;
}
const configMaps = async (client) => {
    const info = await client.resolve('v1', 'ConfigMap');
    if (!info)
        throw new Error('the cluster does not serve v1 ConfigMaps');
    return info;
};
/**
 * Reads the job's watermark. Undefined when there is none yet; throws when it cannot be read (the
 * caller falls back to the push's own change and says so).
 */
async function readWatermark(client, namespace, key) {
    await configMaps(client);
    const name = watermarkName(key);
    const cm = await client.get({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace, name });
    if (!cm)
        return undefined;
    const watermark = parseWatermark(cm);
    if (!watermark)
        throw new Error(`ConfigMap ${namespace}/${name} does not hold a kpt-live-action watermark`);
    return { watermark, resourceVersion: cm.metadata.resourceVersion };
}
/**
 * Stores the watermark: a create when there was none, else an update of the version read (a 409 means
 * another run stored one meanwhile: `conflict`; the caller reads it again and merges).
 */
async function writeWatermark(client, namespace, key, watermark, resourceVersion) {
    const name = watermarkName(key);
    const cm = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
            name,
            namespace,
            labels: { [WatermarkLabel]: name.slice('kpt-live-watermark-'.length) },
            annotations: {
                [Annotation.repository]: key.repository,
                [Annotation.branch]: key.branch,
                [Annotation.commentKey]: key.commentKey,
            },
            ...(resourceVersion ? { resourceVersion } : {}),
        },
        data: { watermark: JSON.stringify(watermark) },
    };
    try {
        if (resourceVersion)
            await client.replace(cm);
        else
            await client.create(cm);
        return 'written';
    }
    catch (err) {
        if (err instanceof api_error/* KubeApiError */.W3 && err.code === 409)
            return 'conflict';
        throw err;
    }
}

;// CONCATENATED MODULE: ./src/action/catch-up-selection.ts










/** `refs/heads/main` → `main`. */
const branchOf = (ref) => ref.replace(/^refs\/heads\//, '');
const view = (r) => ({
    mode: r.mode,
    result: r.result,
    startedAt: r.startedAt,
    ...(r.commit ? { commit: r.commit } : {}),
    ...(r.tree ? { tree: r.tree } : {}),
});
/**
 * Records written before trees were recorded: the tree of the records catch-up compares (what the cluster
 * runs, and failures since the last successful apply) is read from git at their commit, fetched by SHA
 * in a shallow checkout. One fetch for all, one `git cat-file` per commit.
 */
async function fillTrees(repoRoot, records) {
    const wanted = new Map();
    for (const list of records.values()) {
        const lastApply = list.findIndex((r) => r.mode === 'apply' && r.result === 'success');
        const running = list.findIndex((r) => r.mode !== 'destroy' && r.result === 'success');
        const end = Math.max(lastApply, running);
        for (const [i, r] of list.entries()) {
            if (r.tree || !r.commit || (end >= 0 && i > end))
                continue;
            if (!wanted.has(r.commit))
                wanted.set(r.commit, new Set());
            wanted.get(r.commit).add(r.package);
        }
    }
    if (wanted.size === 0)
        return;
    await ensureCommits(repoRoot, [...wanted.keys()]).catch(() => undefined);
    for (const [commit, dirs] of wanted) {
        const trees = await packageTrees(repoRoot, commit, [...dirs]);
        for (const list of records.values())
            for (const r of list)
                if (!r.tree && r.commit === commit)
                    r.tree = trees.get(r.package);
    }
}
/**
 * Reads what catch-up decides from: the units at the pushed commit and their trees, the job's watermark,
 * every unit's deploy records (one LIST per namespace), the push's own change; then decides
 * (src/changes/catch-up.ts). `packages` filters what it covers.
 */
async function selectCatchUp(o) {
    const { repoRoot, ctx, client, namespace } = o;
    const notes = [];
    const warnings = [];
    const head = ctx.push?.after ?? ctx.sha;
    const key = {
        repository: `${ctx.owner}/${ctx.repo}`,
        branch: branchOf(ctx.ref),
        commentKey: o.inputs.commentKey,
    };
    let stored;
    let writable = true;
    try {
        stored = await readWatermark(client, namespace, key);
    }
    catch (err) {
        writable = false;
        warnings.push(`watermark ConfigMap ${namespace}/${watermarkName(key)} could not be read (${err.message}): packages without a deploy record run only when the push touches them, and it is not updated`);
    }
    const wm = stored?.watermark;
    // the push's own change: what it touched, and the units it deleted
    let touched = 'all';
    const pushGone = [];
    if (ctx.push) {
        const cs = await changeSetForEvent(ctx, { repoDir: repoRoot, octokit: o.octokit });
        notes.push(...cs.notes);
        if (!cs.all) {
            const changed = await changedPackages(repoRoot, cs);
            notes.push(...changed.notes);
            warnings.push(...changed.warnings);
            touched = new Set(changed.units.map((u) => u.path));
            for (const u of changed.units)
                if (u.removed)
                    pushGone.push({ path: u.path, ...(u.baseCommit ? { baseCommit: u.baseCommit } : {}) });
        }
    }
    // the units at the pushed commit, with their inventories (a broken one cannot be compared, only run)
    const all = await findUnits(repoRoot);
    const inventories = new Map();
    const broken = new Map();
    for (const u of all) {
        const info = await readInventoryInfo(u.dir, { repoRoot }).catch((err) => ({
            inventory: undefined,
            errors: [{ message: err.message }],
        }));
        if (info.inventory)
            inventories.set(u.dir, info.inventory);
        else
            broken.set(u.dir, `its inventory info cannot be read (${info.errors[0]?.message ?? 'none'})`);
    }
    // units the watermark knew that are gone now (unless they moved: the same inventory at a new path)
    const wmGone = [];
    const moved = [];
    for (const [path, inv] of Object.entries(wm?.units ?? {})) {
        if (all.some((u) => u.dir === path) || pushGone.some((g) => g.path === path))
            continue;
        const movedTo = [...inventories].find(([, now]) => sameInventory({ ...inv }, now))?.[0];
        if (movedTo) {
            notes.push(`package "${path}" moved to "${movedTo}" with the same inventory`);
            moved.push(path);
        }
        else
            wmGone.push({ path, inventory: inv, ...(wm?.commit ? { baseCommit: wm.commit } : {}) });
    }
    // `packages`: a filter over all of it
    let present = all.map((u) => u.dir);
    let gone = [...pushGone, ...wmGone];
    if (o.inputs.packages.length > 0) {
        const f = await resolvePackageFilter(repoRoot, o.inputs.packages, gone.map((g) => g.path));
        notes.push(...f.notes);
        present = present.filter((p) => f.units.has(p));
        gone = gone.filter((g) => f.gone.has(g.path));
    }
    // the trees of what the checkout holds (the pushed commit): what is applied
    const treesAt = await packageTrees(repoRoot, 'HEAD', present);
    if (present.length > 0 && [...treesAt.values()].every((t) => t === undefined))
        notes.push(`git cannot read the trees of ${head.slice(0, 7)} (not a git checkout?): packages are compared by the commit last applied`);
    const wmGoneInvs = gone.flatMap((g) => (g.inventory ? [g.inventory] : []));
    const histories = await readHistories(client, [
        ...present.flatMap((p) => (inventories.has(p) ? [inventories.get(p)] : [])),
        ...wmGoneInvs,
    ]);
    const records = new Map();
    for (const [k, list] of histories)
        if (list)
            records.set(k, list);
    await fillTrees(repoRoot, records);
    const units = present.map((p) => {
        const inv = inventories.get(p);
        const list = inv ? histories.get(inventoryKey(inv)) : undefined;
        return {
            path: p,
            tree: treesAt.get(p),
            ...(list ? { records: list.map(view) } : {}),
            ...(broken.has(p) ? { unreadable: broken.get(p) } : {}),
        };
    });
    const goneUnits = gone.map((g) => {
        const list = g.inventory ? histories.get(inventoryKey(g.inventory)) : undefined;
        return { ...g, ...(list ? { records: list.map(view) } : {}) };
    });
    const result = catchUp({
        head,
        units,
        gone: goneUnits,
        touched,
        ...(ctx.push ? { push: ctx.push } : {}),
        ...(wm
            ? {
                watermark: {
                    ...(wm.commit ? { commit: wm.commit } : {}),
                    units: new Set(Object.keys(wm.units)),
                },
            }
            : {}),
        held: wm?.held ?? {},
        destroyRemovedPackages: o.inputs.destroyRemovedPackages,
    });
    const session = {
        client,
        namespace,
        key,
        ...(stored ? { stored } : {}),
        writable,
        head,
        units: Object.fromEntries(present.flatMap((p) => (inventories.has(p) ? [[p, inventories.get(p)]] : []))),
        trees: Object.fromEntries(present.map((p) => [p, treesAt.get(p)])),
        forget: [...result.forget, ...moved],
    };
    return { result, session, notes, warnings };
}

;// CONCATENATED MODULE: ./src/action/select-packages.ts






const empty = (units = []) => ({ units, held: [], upToDate: [], skipped: [] });
async function withTrees(repoRoot, units) {
    const trees = await packageTrees(repoRoot, 'HEAD', units.filter((u) => !u.removed).map((u) => u.path));
    return units.map((u) => (trees.get(u.path) ? { ...u, tree: trees.get(u.path) } : u));
}
/** The event's own change: a pull request's files, a push's diff, a merge queue's base..head. */
async function fromChange(repoRoot, ctx, octokit) {
    const changeSet = await changeSetForEvent(ctx, { repoDir: repoRoot, octokit });
    for (const n of changeSet.notes)
        toolkit/* info */.pq(n);
    if (changeSet.all)
        return (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false }));
    const changed = await changedPackages(repoRoot, changeSet);
    for (const n of changed.notes)
        toolkit/* info */.pq(n);
    for (const w of changed.warnings)
        toolkit/* warning */.$e(w);
    return changed.units;
}
/**
 * Which deployable units this run handles, before any of them runs (src/action/run-scope.ts decides
 * the kind): the `packages` input; the units the event's change touches, deleted ones marked
 * `removed`; every unit; or, for an apply, catch-up: what the cluster lacks of the commit, read from
 * the deploy records and the job's watermark in `cluster`. Without `cluster` (mode resolve without
 * credentials) catch-up falls back to the push's own change, with a notice.
 */
async function selectPackages(o) {
    const { repoRoot, scope, ctx, octokit, inputs } = o;
    switch (scope.kind) {
        case 'nothing':
            return empty();
        case 'explicit': {
            const { paths, notes } = await resolveExplicitPackages(repoRoot, inputs.packages);
            for (const n of notes)
                toolkit/* info */.pq(n);
            return empty(await withTrees(repoRoot, paths.map((path) => ({ path, removed: false }))));
        }
        case 'every':
            return empty(await withTrees(repoRoot, (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false }))));
        case 'change':
            return empty(await withTrees(repoRoot, await fromChange(repoRoot, ctx, octokit)));
        case 'catch-up':
            break;
    }
    if (!o.cluster) {
        toolkit/* notice */.lm(ctx.push
            ? "no cluster credentials: the packages are the push's own change; packages whose earlier run was cancelled or failed are caught up by the apply job, which reads the cluster's deploy records"
            : 'no cluster credentials: every package is listed; the apply job applies those the cluster lacks');
        const units = ctx.push
            ? await fromChange(repoRoot, ctx, octokit)
            : (await findUnits(repoRoot)).map((u) => ({ path: u.dir, removed: false }));
        if (inputs.packages.length === 0)
            return empty(await withTrees(repoRoot, units));
        const named = new Set((await resolveExplicitPackages(repoRoot, inputs.packages)).paths);
        return empty(await withTrees(repoRoot, units.filter((u) => u.removed || named.has(u.path))));
    }
    const sel = await selectCatchUp({ repoRoot, ctx, octokit, inputs, ...o.cluster });
    for (const n of sel.notes)
        toolkit/* info */.pq(n);
    for (const w of sel.warnings)
        toolkit/* warning */.$e(w);
    const r = sel.result;
    return {
        units: r.run.map((e) => ({
            path: e.path,
            removed: e.removed,
            reason: e.reason,
            ...(e.base ? { base: e.base } : {}),
            ...(e.tree ? { tree: e.tree } : {}),
            ...(e.baseCommit ? { baseCommit: e.baseCommit } : {}),
            ...(e.inventory ? { inventory: e.inventory } : {}),
        })),
        held: r.held,
        upToDate: r.upToDate,
        skipped: r.skipped,
        catchUp: sel.session,
    };
}

;// CONCATENATED MODULE: ./src/action/unposted.ts




/**
 * At the end of a run: what it meant to post on GitHub and could not (its rate-limit budget spent, a
 * comment GitHub refused), as one warning and a job summary section, so nothing is lost silently. The
 * results themselves are in the job summary either way.
 */
function reportUnposted(octokit) {
    if (!octokit)
        return;
    const { unposted, policy } = (0,run_state/* runStateOf */.qz)(octokit);
    if (unposted.length === 0)
        return;
    const budget = policy.exhausted
        ? ` GitHub's rate limits used up this run's ${(0,rate_limit/* describeBudget */.No)(policy.budgetMs)} budget for waiting.`
        : '';
    toolkit/* warning */.$e(`${unposted.length} thing(s) not posted on GitHub: ${unposted.map((u) => u.what).join(', ')}.${budget} The job summary has the results.`, { title: 'kpt-live-action: not posted on GitHub' });
    const lines = [
        '### Not posted on GitHub',
        '',
        ...(budget ? [budget.trim(), ''] : []),
        ...unposted.map((u) => `- ${(0,markdown/* escapeText */.X1)(u.what)}: ${(0,markdown/* escapeText */.X1)(u.reason)}`),
        '',
    ];
    try {
        toolkit/* appendSummary */.fe(lines.join('\n'));
    }
    catch {
        // no job summary outside a runner: the warning above says it
    }
}

;// CONCATENATED MODULE: ./src/changes/catch-up-state.ts
const firstLine = (text) => (text ?? 'failed').split('\n')[0].slice(0, 300);
/**
 * The watermark after a catch-up run (a pure merge, so a run that finds another's write in between
 * merges again). The first one knows every unit the run covers; later ones add each unit applied
 * successfully and drop each deleted unit whose removal succeeded, so a unit a failed or cancelled run
 * did not reach is still found as new. Runs of different `packages` filters each add their own. Every
 * failed package is held at its tree (a later success, a new tree or, for a refused removal,
 * `destroy-removed-packages` releases it). The commit advances when every package of the run succeeded.
 */
function nextWatermark(prev, run) {
    const held = {};
    const forget = new Set(run.forget ?? []);
    for (const [path, mark] of Object.entries(prev?.held ?? {})) {
        if (forget.has(path))
            continue;
        const present = path in run.units;
        if (mark.tree === '' ? present : present && run.trees[path] !== mark.tree)
            continue;
        held[path] = mark;
    }
    for (const r of run.results) {
        if (r.outcome === 'success') {
            delete held[r.path];
            continue;
        }
        if (r.outcome === 'skipped' || (!r.removed && !r.tree))
            continue;
        held[r.path] = {
            tree: r.removed ? '' : r.tree,
            commit: run.head,
            reason: firstLine(r.error),
            at: run.at,
            ...(r.removalRefused ? { removalRefused: true } : {}),
        };
    }
    const allGood = run.complete && run.results.every((r) => r.outcome === 'success');
    const units = prev ? { ...prev.units } : { ...run.units };
    for (const r of run.results) {
        if (r.outcome !== 'success')
            continue;
        if (r.removed)
            delete units[r.path];
        else if (run.units[r.path])
            units[r.path] = run.units[r.path];
    }
    for (const path of forget)
        delete units[path];
    const commit = allGood ? run.head : prev?.commit;
    return {
        ...(commit ? { commit } : {}),
        units,
        held,
        ...(run.runUrl ? { run: run.runUrl } : {}),
        updatedAt: run.at,
    };
}

;// CONCATENATED MODULE: ./src/action/watermark-save.ts


/**
 * Stores the watermark after a catch-up run (after every package's run and lock): the units applied
 * added, failed packages held at their tree, the commit advanced when every package succeeded. Returns
 * what the log should say; never throws (the deploy itself is done: a watermark that could not be stored
 * only means the next run compares with the older one).
 */
async function saveWatermark(session, results, o) {
    if (!session.writable)
        return {};
    const where = `${session.namespace}/${watermarkName(session.key)}`;
    const run = {
        head: session.head,
        at: o.at ?? new Date().toISOString(),
        ...(o.runUrl ? { runUrl: o.runUrl } : {}),
        units: session.units,
        trees: session.trees,
        results,
        complete: o.complete,
        forget: session.forget,
    };
    let stored = session.stored;
    try {
        // matrix jobs of one branch share it: a write another run got in first is read again and merged
        for (let attempt = 1;; attempt++) {
            const next = nextWatermark(stored?.watermark, run);
            const r = await writeWatermark(session.client, session.namespace, session.key, next, stored?.resourceVersion);
            if (r === 'written')
                return {
                    info: next.commit === session.head
                        ? `watermark ${where}: ${session.head.slice(0, 7)} fully applied`
                        : `watermark ${where} kept at ${next.commit?.slice(0, 7) ?? '(none)'}: not every package succeeded`,
                };
            if (attempt === 5)
                return { warning: `watermark ${where} not stored: other runs kept updating it` };
            stored = await readWatermark(session.client, session.namespace, session.key);
        }
    }
    catch (err) {
        return { warning: `watermark ${where} not stored: ${err.message}` };
    }
}

;// CONCATENATED MODULE: ./src/action/main.ts















/**
 * The action: inputs → which packages → run each (preview / apply / destroy / status / drift) → report → outputs.
 * `parsed`: the inputs src/index.ts parsed (and may have started connecting with), or why they do not parse.
 */
async function run(parsed = parseInputsOrError()) {
    const abort = new AbortController();
    const onSignal = (sig) => {
        toolkit/* warning */.$e(`received ${sig}: not starting new work; saving the inventory before exiting`);
        abort.abort();
    };
    process.once('SIGINT', () => onSignal('SIGINT'));
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    try {
        if (parsed instanceof Error)
            throw parsed;
        const inputs = parsed;
        const ctx = await readEventContext();
        const repoRoot = packagesRoot(inputs);
        const resolved = resolveMode(inputs.mode, ctx);
        if (resolved.note)
            toolkit/* info */.pq(resolved.note);
        const mode = resolved.mode;
        // before any request: a mode, event and input that do not go together fail here
        const scope = mode === 'drift' ? undefined : runScope(mode, ctx, inputs.packages);
        // Octokit (and the HTTP client under it) is loaded only when there is a token to use it with
        const octokit = inputs.githubToken
            ? (await Promise.all(/* import() */[__webpack_require__.e(413), __webpack_require__.e(973)]).then(__webpack_require__.bind(__webpack_require__, 4973))).createOctokit(inputs.githubToken, { baseUrl: ctx.apiUrl })
            : undefined;
        if (mode === 'drift' || !scope) {
            await runDriftMode(inputs, ctx, repoRoot, octokit, abort.signal);
            reportUnposted(octokit);
            return;
        }
        await checkTargetCheckout(ctx, repoRoot);
        // a fork's (or Dependabot's) pull request: no secrets means nothing to preview with; with credentials
        // its preview runs restricted, and shows no cluster values
        const untrusted = mode === 'preview' ? untrustedSource(ctx) : undefined;
        if (mode === 'preview') {
            const skip = untrustedSkip(inputs, ctx);
            if (skip) {
                toolkit/* notice */.lm(skip.notice);
                toolkit/* appendSummary */.fe(skip.summary);
                toolkit/* setOutput */.uH('packages', '[]');
                setOutputs([]);
                return;
            }
            if (untrusted) {
                const changed = await changeSetForEvent(ctx, { repoDir: repoRoot, octokit });
                for (const n of restrictUntrustedPreview(inputs, untrusted, changed))
                    toolkit/* notice */.lm(n);
            }
        }
        if (scope.kind === 'nothing') {
            toolkit/* notice */.lm(scope.reason);
            toolkit/* setOutput */.uH('packages', '[]');
            setOutputs([]);
            return;
        }
        // catch-up reads the cluster's deploy records before anything runs; resolve does when it can connect
        let conn;
        if (scope.kind === 'catch-up') {
            conn =
                mode === 'resolve'
                    ? await (0,cluster_access/* connectCluster */.b)(inputs.kubeconfig, inputs.context).catch((err) => {
                        toolkit/* info */.pq(`mode resolve: no cluster connection (${err.message})`);
                        return undefined;
                    })
                    : await (0,cluster_access/* connectCluster */.b)(inputs.kubeconfig, inputs.context);
        }
        try {
            const cluster = conn && { client: conn.client, namespace: inputs.namespace || conn.access.namespace };
            const selection = await selectPackages({
                repoRoot,
                scope,
                ctx,
                octokit,
                inputs,
                ...(cluster ? { cluster } : {}),
            });
            const units = selection.units;
            toolkit/* setOutput */.uH('packages', JSON.stringify(units.map((u) => u.path)));
            if (selection.catchUp)
                reportSelection(selection, ctx.push?.after ?? ctx.sha);
            if (mode === 'resolve') {
                toolkit/* info */.pq(`packages: ${units.map((u) => u.path).join(', ') || '(none)'}`);
                return;
            }
            const comments = new PreviewComments(inputs, ctx, octokit);
            const feedback = mode === 'apply' && (ctx.push || selection.catchUp)
                ? new ApplyFeedback(inputs, ctx, octokit, {
                    repoRoot,
                    units: new Map(units.map((u) => [u.path, { base: u.base, tree: u.tree }])),
                })
                : undefined;
            if (mode === 'preview')
                await comments.begin(units.map((u) => u.path));
            feedback?.begin(units.map((u) => u.path));
            if (units.length === 0) {
                if (mode === 'preview')
                    await comments.finish([]);
                toolkit/* info */.pq(selection.catchUp
                    ? 'nothing to apply: the cluster runs this commit for every package this job covers'
                    : 'no kpt package with inventory info is touched by this change: nothing to do');
                if (selection.catchUp && mode === 'apply')
                    await storeWatermark(selection, [], true, ctx);
                setOutputs([]);
                return;
            }
            conn ??= await (0,cluster_access/* connectCluster */.b)(inputs.kubeconfig, inputs.context);
            const results = await runUnits(units, {
                inputs,
                ctx,
                mode,
                repoRoot,
                conn,
                comments,
                feedback,
                untrusted,
                signal: abort.signal,
            });
            if (selection.catchUp && mode === 'apply') {
                const byPath = new Map(units.map((u) => [u.path, u]));
                const outcomes = results.map((r) => {
                    const unit = byPath.get(r.path);
                    return {
                        path: r.path,
                        removed: unit?.removed ?? false,
                        tree: unit?.tree,
                        outcome: r.outcome,
                        ...(r.error ? { error: r.error } : {}),
                        ...(unit?.removed && !inputs.destroyRemovedPackages ? { removalRefused: true } : {}),
                    };
                });
                const complete = !abort.signal.aborted && results.every((r) => r.outcome !== 'skipped');
                await storeWatermark(selection, outcomes, complete, ctx);
            }
            if (mode === 'preview' && !abort.signal.aborted)
                await comments.finish([...units.map((u) => u.path), ...results.map((r) => r.path)]);
            await feedback?.finish();
            reportUnposted(octokit);
            concludeRun(results, abort.signal.aborted);
        }
        finally {
            conn?.client.close();
        }
    }
    catch (err) {
        toolkit/* setFailed */.C1(err instanceof Error ? err.message : String(err));
    }
}
/** Log lines, warnings for held packages, and the job summary section of a catch-up selection. */
function reportSelection(selection, head) {
    const input = {
        head,
        run: selection.units.map((u) => ({ path: u.path, reason: u.reason ?? '', removed: u.removed })),
        held: selection.held,
        upToDate: selection.upToDate,
        skipped: selection.skipped,
    };
    for (const line of catchUpLogLines(input))
        toolkit/* info */.pq(line);
    for (const h of selection.held)
        toolkit/* warning */.$e(`${h.path}: ${h.reason}`, { title: `kpt-live-action: ${h.path} held` });
    toolkit/* appendSummary */.fe(renderCatchUpSummary(input));
}
async function storeWatermark(selection, results, complete, ctx) {
    if (!selection.catchUp)
        return;
    const said = await saveWatermark(selection.catchUp, results, { complete, runUrl: ctx.runUrl });
    if (said.info)
        toolkit/* info */.pq(said.info);
    if (said.warning)
        toolkit/* warning */.$e(said.warning);
}
function parseInputsOrError() {
    try {
        return (0,inputs/* parseInputs */.TL)();
    }
    catch (err) {
        return err;
    }
}


/***/ })

};
