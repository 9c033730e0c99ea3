export const id = 973;
export const ids = [973];
export const modules = {

/***/ 4973:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createOctokit: () => (/* binding */ createOctokit)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2413);
/* harmony import */ var _toolkit_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5851);
/* harmony import */ var _api_response_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(3182);
/* harmony import */ var _rate_limit_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(802);
/* harmony import */ var _run_state_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6753);





/**
 * An Octokit for `token` talking to `baseUrl` (default: `GITHUB_API_URL`). The base URL is passed
 * explicitly rather than left to `@actions/github`, which reads `GITHUB_API_URL` once when the module is
 * first imported, so the choice is visible here and tests can point it anywhere. Every request goes
 * through one RequestPolicy per client (one per run): writes one at a time, rate limits waited out
 * within the run's budget (see rate-limit.ts).
 */
function createOctokit(token, opts = {}) {
    if (!token) {
        throw new Error('no GitHub token: set the "github-token" input (its default is the workflow token, github.token) or set "comment: false"');
    }
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(token, { baseUrl: opts.baseUrl ?? (0,_api_response_js__WEBPACK_IMPORTED_MODULE_4__/* .apiBaseUrl */ .tj)() });
    const policy = new _rate_limit_js__WEBPACK_IMPORTED_MODULE_2__/* .RequestPolicy */ ._u({
        ...opts.policy,
        onWait: opts.onRateLimit ??
            ((ms, why) => _toolkit_js__WEBPACK_IMPORTED_MODULE_1__/* .info */ .pq(`${why}: waiting ${Math.ceil(ms / 1000)} s before retrying`)),
    });
    octokit.hook.wrap('request', policy.hook);
    (0,_run_state_js__WEBPACK_IMPORTED_MODULE_3__/* .attachRunState */ .S3)(octokit, policy);
    return octokit;
}


/***/ })

};
