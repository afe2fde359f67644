"""`macaron memory …`: each function is one subcommand, called by cli.py."""

from __future__ import annotations

import json
import sys
from contextlib import closing
from pathlib import Path

from macaron_cli.errors import UserError
from macaron_cli.output import Out, print_json, print_json_listing


def _store(settings=None):
    """The person's memory, opened with their settings (each subcommand opens it once)."""
    from macaron_cli import config
    from macaron_cli.memory import MemoryStore

    return MemoryStore.open(settings=settings or config.load_settings())


def add(text, domain, lang, privacy, kind, pin, json_out):
    fields = {"kind": kind, "privacy": privacy, "pinned": pin, "source": "manual"}
    if domain:
        fields["domain"] = domain
    if lang:
        fields["language"] = lang
    from macaron_cli.memory import Memory

    Memory.from_dict({"text": text, **fields})  # validate before opening (and creating) the store
    memory = _store().add(text, **fields)
    if json_out:
        print_json(memory.to_dict())
    else:
        Out().line("Remembered [bold]{}[/]: {}", memory.id, memory.text)


def search(query, k, batch, json_out, nearest=False, show_all=False):
    if k < 1:
        raise UserError("--limit must be at least 1.")
    if batch is not None:
        return _search_batch(batch, k)
    if not query:
        raise UserError('give a query, e.g. `macaron memory search "coffee"`, or --batch FILE.jsonl.')
    from macaron_cli.memory import score_parts
    from macaron_cli.memory.records import CHAT, LOOKUP
    from macaron_cli.memory.updates import current, replaced_by

    store = _store()
    # --nearest: as chat and the browser rank (below the floor, the nearest in meaning too)
    hits = store.search(query, k=k, purpose=CHAT if nearest else LOOKUP)
    if not hits and not json_out and store.vectors:  # nothing found: the nearest in meaning, as the browser lists
        hits, nearest = store.search(query, k=k, purpose=CHAT), True
    # A memory a newer one updates is history: shown with --all, marked with what replaced it.
    now = current(hits)
    live = {h.memory.id for h in now}
    shown = hits if show_all else now
    newer = (
        {h.memory.id: replaced_by(store, h.memory, query) for h in hits if h.memory.id not in live} if show_all else {}
    )
    if json_out:
        print_json(
            [{**h.to_json(), **({"replaced_by": later.id} if (later := newer.get(h.memory.id)) else {})} for h in shown]
        )
        return
    shown = score_parts.in_view_order(shown)
    out = Out()
    said = score_parts.headline(query, shown, [h for h in hits if h.memory.id not in live] if not show_all else ())
    found, _ = score_parts.split(shown)
    if not found:  # "No memory holds a word of …" leads: what follows is only near it
        out.line("{}.", said)
    for rank, h in zip(score_parts.ranks(shown), shown, strict=True):
        out.line(
            "[bold]{}[/] {:.3f}  {}  [dim]({}, {})[/]",
            h.memory.id,
            h.score,
            h.memory.text,
            h.memory.domain,
            h.memory.privacy,
        )
        out.line("  [dim]{}. {}[/]", rank, score_parts.why_here(query, h))
        if (later := newer.get(h.memory.id)) is not None:
            out.line("    [dim]replaced by {}: {}[/]", later.id, later.text)
    if found:
        out.line("[dim]{}.[/]", said)
    if left := len(hits) - len(shown):
        out.line("[dim]{}; --all shows it with what replaced it.[/]", score_parts.replaced_left_out(left))
    if not nearest and store.vectors and len(hits) < k:  # where the browser and chat list more
        out.line("[dim]{}.[/]", score_parts.FLOOR_RULE[0].upper() + score_parts.FLOOR_RULE[1:])


def _search_batch(path: Path, k: int) -> None:
    queries = []
    for lineno, line in enumerate(_read_lines(path), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path} line {lineno}: not valid JSON ({exc.msg}).") from None
        if not isinstance(item, dict) or not isinstance(item.get("query"), str) or "id" not in item:
            raise UserError(f'{path} line {lineno}: expected {{"id": …, "query": "…"}}.')
        queries.append(item)
    store = _store()
    for item in queries:
        print_json({"id": item["id"], "hits": [h.to_json() for h in store.search(item["query"], k=k)]})


def list_memories(limit, json_out, show_all=False):
    if limit < 1:
        raise UserError("--limit must be at least 1.")
    store = _store()
    replaced = store.superseded_ids()
    # versions a newer one replaced stay out of the list, as they stay out of search
    memories = store.list(limit=limit) if show_all else store.live(limit=limit)
    if json_out:
        print_json([{**m.to_dict(), **({"replaced": m.id in replaced} if show_all else {})} for m in memories])
        return
    out = Out()
    for m in memories:
        pin = "📌 " if m.pinned else ""
        old = "[dim](replaced)[/] " if m.id in replaced else ""
        out.line(
            "[bold]{}[/] " + old + "{}{}  [dim]({}, {}, {}, {})[/]",
            m.id,
            pin,
            m.text,
            m.kind,
            m.domain,
            m.language,
            m.privacy,
        )
    if not memories:
        out.text('No memories yet. `macaron memory add "…"` or `macaron chat` will make some.')


def pin(memory_id, unpin, json_out=False):
    memory = _store().pin(memory_id, not unpin)
    if json_out:
        print_json(memory.to_dict())
        return
    Out().text(f"{'Unpinned' if unpin else 'Pinned'} {memory_id}.")


def edit(memory_id, text, json_out=False):
    if not text.strip():
        raise UserError("the new text is empty; to remove a memory use `macaron memory forget ID`.")
    new = _store().update(memory_id, text=text)
    if json_out:
        print_json(new.to_dict())
        return
    Out().text(f"Updated: {new.id} now supersedes {memory_id}.")


def stats(json_out):
    data = _store().stats()
    if json_out:
        print_json(data)
        return
    out = Out()
    out.line(
        "[bold]{}[/] memories ({} pinned, {} superseded) at {}",
        data["total"],
        data["pinned"],
        data["superseded"],
        data["uri"],
    )
    for key in ("by_kind", "by_domain", "by_language", "by_privacy"):
        parts = ", ".join(f"{k} {v}" for k, v in sorted(data[key].items(), key=lambda kv: -kv[1]))
        out.text(f"  {key[3:]}: {parts or '-'}")
    model = (data["vector_model"] or {}).get("name", "an unrecorded model")
    vectors = (
        f"{data['with_vectors']} with vectors of {model}"
        if data["embeddings"]
        else "keyword search only (MACARON_EMBEDDINGS is off)"
    )
    size = f", {data['disk_bytes'] / 1e6:.1f} MB on disk" if data["disk_bytes"] is not None else ""
    out.text(f"  schema {data['schema_version']}, {vectors}{size}")


def reembed():
    import time

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from macaron_cli import config
    from macaron_cli.memory import embeddings
    from macaron_cli.memory import reembed as reembedding

    settings = config.load_settings()
    embeddings.choose(settings.embedding_model)  # which model to ask about, before the store opens
    if not embeddings.available():
        why = "MACARON_EMBEDDINGS is off" if embeddings.installed() else f"{embeddings.PACKAGE} is not installed"
        raise UserError(f"memories cannot get vectors: {why}; unset MACARON_EMBEDDINGS or reinstall macaron.")
    store = _store(settings)  # opening swaps in the model's (empty) vector column if it changed
    total = reembedding.pending(store)
    name = embeddings.model_info()["name"]
    if not total:
        Out().text(f"Every memory has a vector of {name}.")
        return
    columns = (TextColumn("re-embedding"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Out(stderr=True).console, transient=False) as bar:
        task = bar.add_task("reembed", total=total)
        done = reembedding.run(store, on_progress=lambda n, of: bar.update(task, completed=n, total=of))
        while done is None and reembedding.running(store):  # another process does it: follow it
            bar.update(task, completed=total - reembedding.pending(store))
            time.sleep(0.5)
        if done is None:  # it ended (or died): finish what it left
            done = reembedding.run(store, on_progress=lambda n, of: bar.update(task, completed=total - of + n))
        bar.update(task, completed=total)
    Out().text(f"Every memory has a vector of {name}.")


def import_file(file, json_out=False, dry_run=False):
    from macaron_cli.memory import chat_import, importing

    fmt = chat_import.export_format(file)
    if fmt is not None:
        return _import_export(file, fmt, json_out, dry_run)
    if dry_run:
        raise UserError(f"--dry-run reads ChatGPT and Claude exports; {file} is neither (import it without --dry-run).")

    # Validate the whole file first (streaming, never all in memory), so a bad line writes nothing.
    fmt = importing.detect_format(_read_lines(file))
    if fmt is None:  # nothing to read: said so, and the store is not opened (nor made)
        if json_out:
            print_json({**importing.Report(str(file), "empty").summary(), "records": []})
        else:
            Out(stderr=True).text(f"{file} is empty: nothing to import.")
        return
    for lineno, line in enumerate(_read_lines(file), 1):
        if line.strip():
            importing.parse(line, lineno, fmt)  # a UserError naming the line when it is not a memory

    store = _store()
    planner = importing.Planner(store, str(file), fmt, every=json_out)

    def records():
        for lineno, line in enumerate(_read_lines(file), 1):
            if line.strip():
                memory = planner.plan(*importing.parse(line, lineno, fmt), lineno)
                if memory is not None:
                    yield memory

    err = Out(stderr=True)

    def committed(count: int) -> None:  # each line here means those records are on disk
        err.text(f"imported {count} so far")

    store.add_many(records(), on_batch=committed)
    for memory_id, changes in planner.field_updates:
        store.update(memory_id, **changes)
    with closing(planner.report) as report:
        if json_out:
            return _print_report(report)
        _say_imported(report, err)


def _import_export(file, fmt: str, json_out: bool, dry_run: bool) -> None:
    """A ChatGPT or Claude export: checked whole first (a break in it writes nothing), then
    kept a conversation at a time; with `dry_run`, only said. What it says of each record
    waits on disk (the planner's report, a dry run's labels): memory stays flat."""
    from macaron_cli.memory import chat_exports, chat_import
    from macaron_cli.memory.spool import Spool
    from macaron_cli.output import progress

    size, product = chat_import.size(file), chat_exports.product(fmt)
    err = Out(stderr=True)
    if not dry_run:
        with progress(size, f"Checking the {product} export") as to:
            for _ in chat_import.conversations(file, fmt, to):
                pass
    store = None if dry_run else _store()
    planner = chat_import.ChatPlanner(store, str(file), fmt, every=json_out)
    labelled = Spool()  # dry run: what each memory would be labelled and why

    def records():
        with progress(size, f"{'Reading' if dry_run else 'Importing'} the {product} export") as to:
            for found in chat_import.conversations(file, fmt, to):
                if isinstance(found, tuple):
                    planner.not_kept(*found)
                    continue
                for why in found.unread:
                    planner.not_kept(found.number, why, found.title)
                for planned in chat_import.memories(found, fmt, planner.remembered):
                    if isinstance(planned, tuple):
                        planner.not_kept(found.number, f"message {planned[0].id}: {planned[1]}", found.title)
                        continue
                    memory = planner.plan(planned)
                    if memory is not None:
                        if dry_run:
                            labelled.append(chat_import.Label.of(planned, memory))
                        yield memory

    with closing(planner), closing(labelled):
        if store is None:
            for _ in records():
                pass
            return _say_dry_run(planner.report, labelled, json_out, err)
        store.add_many(records(), ready=True)  # the planner prepared each, to compare redacted texts
        if json_out:
            return _print_report(planner.report)
        _say_imported(planner.report, err)


def _print_report(report) -> None:
    """The report as JSON, every record listed (read back from disk as it is written)."""
    print_json_listing(report.summary(), {"records": report.records()})


def _say_dry_run(report, labelled, json_out: bool, out: Out) -> None:
    if json_out:
        lists = {"records": report.records(), "labels": (label.to_json() for label in labelled)}
        return print_json_listing({**report.summary(), "dry_run": True}, lists)
    title = None
    for label in labelled:  # each conversation once; under it, what is kept otherwise than plainly
        if label.conversation != title:
            title = label.conversation
            out.line("[bold]{}[/] {}", label.conversation or "(untitled)", label.dates)
        if label.says:
            out.line("  {} {}: {}{}", label.level, label.who, label.preview, label.says)
    private = sum(1 for label in labelled if label.private)
    secrets = sum(1 for label in labelled if label.redacted)
    out.text(
        f"Would import {labelled.count} memories from {report.file} ({report.format}): {private} private, "
        f"{secrets} with secrets redacted, {report.count('not kept')} not kept. Nothing was written (--dry-run)."
    )
    _say_not_kept(report, out)


def _say_not_kept(report, out: Out) -> None:
    for outcome in report.noted:
        where = outcome.where or {}
        out.line(
            "  conversation {} {}: {} {}",
            where.get("conversation", outcome.line),
            f"«{where['title']}»" if where.get("title") else "",
            "not kept:" if outcome.action == "not kept" else "kept in parts:",
            outcome.reason,
        )
    _say_more(report, out)


def _say_more(report, out: Out) -> None:
    if report.noted_total > len(report.noted):
        out.text(f"  … and {report.noted_total - len(report.noted)} more (`--json` lists every record).")


def _say_imported(report, out: Out) -> None:
    added, updated, skipped, not_kept = (report.count(a) for a in ("added", "updated", "skipped", "not kept"))
    kind = {"conversation": "conversation lines", "chatgpt": "messages", "claude": "messages"}.get(
        report.format, "records"
    )
    if not added and not updated:
        out.text(f"Nothing new in {report.file}: {skipped} {kind} skipped, already remembered.")
    else:
        out.text(
            f"Imported {report.file} ({report.format}): {added} added, {updated} updated"
            f"{' (old texts kept as superseded versions)' if updated else ''}, {skipped} skipped"
            f"{f', {not_kept} not kept' if not_kept else ''}."
        )
    if report.format in ("chatgpt", "claude"):
        return _say_not_kept(report, out)
    for outcome in report.noted:
        out.text(f"  line {outcome.line}: {outcome.action} {outcome.id}: {outcome.reason}")
    _say_more(report, out)


def export_jsonl(file, json_out=False, show_all=False):
    def memories(store):  # the live versions, as every reader sees them; --all: the history too
        return store.iter_all() if show_all else store.iter_live()

    if file is None:
        for memory in memories(_store()):
            sys.stdout.write(json.dumps(memory.to_dict(), ensure_ascii=False) + "\n")
        return
    from macaron_cli.files import atomic_write, check_target

    path = check_target(file)  # before the store is opened: a bad target writes nothing
    store = _store()
    count = 0
    # Written privately (0600) and renamed into place: an export holds everything the person told us.
    with atomic_write(path) as out:
        for memory in memories(store):
            out.write(json.dumps(memory.to_dict(), ensure_ascii=False) + "\n")
            count += 1
    if json_out:
        print_json({"file": str(path), "exported": count})
        return
    Out(stderr=True).text(f"Exported {count} memories to {path}.")


def _read_lines(path: Path):
    from macaron_cli.memory.importing import read_lines

    return read_lines(path)
