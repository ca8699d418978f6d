"""The table of bench/accuracy/verified_ports/run.sh from its rows:
case, uses before, uses after, target, verify-port's JSON report."""
import json
import sys

rows = [line.rstrip("\n").split("\t") for line in sys.stdin if line.strip()]
whole = stable = verified = ops = 0
print("%-20s %6s %6s %6s %-7s %-14s %s" % ("case", "uses", "left", "target", "stable", "ops verified", "notes"))
for name, before, after, target, report in rows:
    try:
        r = json.load(open(report))
    except (OSError, ValueError) as e:
        r = {"extensions": [], "why_not": "no report: %s" % e}
    exts = r.get("extensions", [])
    good = bool(exts) and all(e.get("stable_only") is True for e in exts)
    n = sum(len(e["ops"]) for e in exts)
    v = sum(1 for e in exts for o in e["ops"] if o["status"] == "verified")
    notes = [r["why_not"]] if r.get("why_not") else []
    for e in exts:
        if e.get("stable_only") is not True:
            notes.append(str(e["stable_only"])[:160])
        if e.get("port_build") is not True:
            notes.append(str(e["port_build"])[:160])
        notes += ["%s %s: %s" % (o["op"], o["status"], o["why"][:120]) for o in e["ops"] if o["status"] != "verified"]
        notes += ["not ported: " + m for m in e.get("not_ported", [])]
    whole += after == "0"
    stable += good
    verified += v
    ops += n
    print("%-20s %6s %6s %6s %-7s %-14s %s" % (name, before, after, target, "yes" if good else "no", "%d/%d" % (v, n),
                                             "; ".join(notes)))
print("%d cases: %d ported completely, %d compile with the stable headers alone, %d of %d ops give the "
      "original's outputs" % (len(rows), whole, stable, verified, ops))
