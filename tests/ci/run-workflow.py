#!/usr/bin/python3
# Runs kab's example CI workflows on this machine, the way GitHub Actions
# and GitLab CI would, as far as kab's flow needs: each job (and each
# matrix cell) in its own directory and its own processes, step outputs,
# artifacts handed from job to job, the step summary.  Cells run one
# after another: a CI system gives each its own runner, and on one
# 2-CPU machine two TCG guests at once starve each other (a guest hung
# past its 184 s deadline that way); KAB_WORKFLOW_PARALLEL=1 runs them
# side by side.  Checkout steps are replaced by a "kab" link to the tree
# under test.  Variables given as KEY=VALUE override the workflow's
# (which kernels, how many boots); matrix.KEY=a,b keeps only the GitLab
# matrix cells whose KEY is a or b.  Any expression or construct this
# runner does not know is an error, so the examples cannot drift from
# what is tested.
#
#   run-workflow.py github|gitlab WORKFLOW.yml WORKDIR [KEY=VALUE...]
#
# Writes WORKDIR/result.json: {"job or job/cell": {"status", "steps"}}.
import glob, itertools, json, os, re, shutil, subprocess, sys, threading
import yaml

TOP = os.environ.get("KAB_TOP") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))


class Unsupported(Exception):
    pass



def run_all(threads):
    """The cells' threads, one after another unless asked otherwise."""
    parallel = os.environ.get("KAB_WORKFLOW_PARALLEL") == "1"
    for t in threads:
        t.start()
        if not parallel:
            t.join()
    for t in threads:
        t.join()

def workdir(root, name):
    d = os.path.join(root, re.sub(r"[^A-Za-z0-9_.-]", "_", name))
    os.makedirs(d)
    os.symlink(TOP, os.path.join(d, "kab"))
    return d


def run_script(script, cwd, env, log):
    with open(log, "ab") as out:
        out.write(b"$ " + script.encode() + b"\n")
        out.flush()
        return subprocess.run(["bash", "--noprofile", "--norc", "-eo",
                               "pipefail", "-c", script], cwd=cwd, env=env,
                              stdout=out, stderr=subprocess.STDOUT).returncode


# ---- GitHub Actions ----

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def gh_eval(expr, ctx):
    expr = expr.strip()
    m = re.fullmatch(r"fromJSON\((.*)\)", expr)
    if m:
        return json.loads(gh_eval(m.group(1), ctx))
    if expr == "always()":
        return True
    m = re.fullmatch(r"env\.(\w+)\s*(==|!=)\s*'([^']*)'", expr)
    if m:
        eq = ctx["env"].get(m.group(1), "") == m.group(3)
        return eq if m.group(2) == "==" else not eq
    parts = expr.split(".")
    if parts[0] == "matrix" and len(parts) == 2 and "matrix" in ctx:
        v = ctx["matrix"][parts[1]]
        return v if isinstance(v, str) else json.dumps(v)
    if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
        return ctx["steps"][parts[1]][parts[3]]
    if parts[0] == "needs" and len(parts) == 4 and parts[2] == "outputs":
        return ctx["needs"][parts[1]][parts[3]]
    if parts[0] == "env" and len(parts) == 2:
        return ctx["env"].get(parts[1], "")
    raise Unsupported("expression not supported here: " + expr)


def gh_subst(text, ctx):
    if not isinstance(text, str):
        return text
    m = EXPR.fullmatch(text.strip())
    if m:
        return gh_eval(m.group(1), ctx)
    return EXPR.sub(lambda m: str(gh_eval(m.group(1), ctx)), text)


def gh_if(cond, ctx):
    if cond is None:
        return None
    m = EXPR.fullmatch(cond.strip())
    return bool(gh_eval(m.group(1) if m else cond, ctx))


def gh_uses(step, ctx, cwd, arts, log):
    uses, w = step["uses"], step.get("with", {})
    if uses.startswith("actions/checkout@"):
        return 0        # the tree under test is linked as ./kab
    if uses.startswith("actions/upload-artifact@"):
        name = gh_subst(w["name"], ctx)
        dest = os.path.join(arts, name)
        os.makedirs(dest, exist_ok=True)
        for pat in gh_subst(w["path"], ctx).split("\n"):
            for f in glob.glob(os.path.join(cwd, pat.strip())) if pat.strip() else []:
                shutil.copy(f, dest)
        return 0
    if uses.startswith("actions/download-artifact@"):
        dest = os.path.join(cwd, gh_subst(w.get("path", "."), ctx))
        os.makedirs(dest, exist_ok=True)
        if not w.get("merge-multiple"):
            raise Unsupported("download-artifact without merge-multiple")
        for d in glob.glob(os.path.join(arts, gh_subst(w["pattern"], ctx))):
            for f in os.listdir(d):
                shutil.copy(os.path.join(d, f), dest)
        return 0
    raise Unsupported("action not supported here: " + uses)


def gh_job(name, job, ctx, root, arts, overrides):
    cwd = workdir(root, name)
    env = dict(os.environ)
    env.update(ctx["env"])
    env["GITHUB_STEP_SUMMARY"] = os.path.join(cwd, "step-summary.md")
    ctx = dict(ctx, steps={})
    log = os.path.join(cwd, "log")
    res = {"status": "success", "steps": [], "dir": cwd}
    for i, step in enumerate(job["steps"]):
        sname = gh_subst(step.get("name", step.get("uses", "run")), ctx)
        cond = gh_if(step.get("if"), ctx)
        if res["status"] == "failure" and cond is not True:
            continue
        if cond is False:
            res["steps"].append({"name": sname, "rc": None})
            continue
        if "uses" in step:
            rc = gh_uses(step, ctx, cwd, arts, log)
        else:
            out = os.path.join(cwd, "output.%d" % i)
            open(out, "w").close()
            env["GITHUB_OUTPUT"] = out
            rc = run_script(gh_subst(step["run"], ctx), cwd, env, log)
            ctx["steps"][step.get("id", str(i))] = dict(
                l.rstrip("\n").split("=", 1) for l in open(out) if "=" in l)
        res["steps"].append({"name": sname, "rc": rc})
        if rc:
            res["status"] = "failure"
    res["outputs"] = {k: gh_subst(v, ctx)
                      for k, v in job.get("outputs", {}).items()}
    return res


def github(wf, root, overrides):
    arts = os.path.join(root, "artifacts")
    os.makedirs(arts)
    env = {}
    for k, v in (wf.get("env") or {}).items():
        env[k] = overrides[k] if k in overrides else str(gh_subst(v, {"env": env}))
    env.update(overrides)
    results, needs = {}, {}
    for name, job in wf["jobs"].items():
        deps = job.get("needs", [])
        deps = [deps] if isinstance(deps, str) else deps
        ctx = {"env": env, "needs": {d: results[d]["outputs"] for d in deps
                                     if d in results}}
        ok = all(results[d]["status"] == "success" for d in deps)
        if not ok and gh_if(job.get("if"), ctx) is not True:
            results[name] = {"status": "skipped", "steps": [], "outputs": {}}
            continue
        matrix = job.get("strategy", {}).get("matrix")
        if matrix is None:
            results[name] = gh_job(name, job, ctx, root, arts, overrides)
            continue
        try:
            cells = gh_subst(matrix, ctx)["include"]
        except ValueError:
            raise Unsupported("job %s: its matrix is not JSON (did the "
                              "plan fail? see %s)" % (name, root))
        out = [None] * len(cells)

        def cell(i):
            out[i] = gh_job("%s-%d" % (name, i), job,
                            dict(ctx, matrix=cells[i]), root, arts, overrides)
        run_all([threading.Thread(target=cell, args=(i,))
                 for i in range(len(cells))])
        for i, r in enumerate(out):
            results["%s/%s" % (name, cells[i].get("cell", i))] = r
        results[name] = {"outputs": {}, "steps": [], "status":
                         "success" if all(r["status"] == "success" for r in out)
                         else "failure"}
    return results


# ---- GitLab CI ----

def gitlab(wf, root, overrides):
    matrix_filter = {k[7:]: v.split(",") for k, v in overrides.items()
                     if k.startswith("matrix.")}
    overrides = {k: v for k, v in overrides.items()
                 if not k.startswith("matrix.")}
    arts = os.path.join(root, "artifacts")
    os.makedirs(arts)
    variables = {k: str(v) for k, v in (wf.get("variables") or {}).items()}
    variables.update(overrides)
    before = (wf.get("default") or {}).get("before_script", [])
    results, failed = {}, False
    for stage in wf["stages"]:
        jobs = [(n, j) for n, j in wf.items()
                if isinstance(j, dict) and j.get("stage") == stage]
        planned = []
        for name, job in jobs:
            if failed and job.get("when") != "always":
                results[name] = {"status": "skipped", "steps": []}
                continue
            combos = [{}]
            for m in (job.get("parallel") or {}).get("matrix", []):
                keys = list(m)
                vals = [v if isinstance(v, list) else [v] for v in m.values()]
                combos = [dict(zip(keys, c)) for c in itertools.product(*vals)]
            # matrix.KEY=a,b keeps the cells whose KEY is a or b
            for key, keep in matrix_filter.items():
                combos = [c for c in combos if key not in c or
                          str(c[key]) in keep]
            for k, combo in enumerate(combos):
                planned.append(("%s/%d" % (name, k) if len(combos) > 1 else name,
                             job, combo))
        out = {}

        def one(name, job, combo):
            cwd = workdir(root, name)
            for f in os.listdir(arts):
                shutil.copy(os.path.join(arts, f), cwd)
            env = dict(os.environ)
            env.update(variables)
            env.update({k: str(v) for k, v in combo.items()})
            env.update(overrides)
            log = os.path.join(cwd, "log")
            rc = run_script("\n".join(before + job["script"]), cwd, env, log)
            a = job.get("artifacts", {})
            if not rc or a.get("when") == "always":
                for pat in a.get("paths", []):
                    for f in glob.glob(os.path.join(cwd, pat)):
                        shutil.copy(f, arts)
            out[name] = {"status": "failure" if rc else "success",
                         "steps": [{"name": "script", "rc": rc}], "dir": cwd}
        run_all([threading.Thread(target=one, args=t) for t in planned])
        results.update(out)
        failed |= any(r["status"] == "failure" for r in out.values())
    return results


def main():
    kind, path, root = sys.argv[1:4]
    overrides = dict(a.split("=", 1) for a in sys.argv[4:])
    wf = yaml.safe_load(open(path))
    os.makedirs(root, exist_ok=True)
    results = (github if kind == "github" else gitlab)(wf, root, overrides)
    json.dump(results, open(os.path.join(root, "result.json"), "w"), indent=1)
    for name, r in results.items():
        print("%-40s %s %s" % (name, r["status"],
              " ".join("%s=%s" % (s["name"], s["rc"]) for s in r["steps"])))


if __name__ == "__main__":
    try:
        main()
    except Unsupported as e:
        sys.exit("run-workflow: " + str(e))
