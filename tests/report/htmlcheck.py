"""A strict reader of the report's pages: tag balance, ids, links, scripts, handlers, and the CSP."""

from __future__ import annotations

import base64
import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Page:
    """What the parser found in one page."""

    errors: list[str] = field(default_factory=list)
    tags: Counter[str] = field(default_factory=Counter)
    links: list[str] = field(default_factory=list)
    scripts: list[tuple[dict[str, str | None], str]] = field(default_factory=list)  # (attributes, text)
    styles: list[str] = field(default_factory=list)
    csp: str = ""
    ids: Counter[str] = field(default_factory=Counter)


class _Parser(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[str] = []
        self.raw: list[str] | None = None  # text of the <script> or <style> being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        page = self.page
        page.tags[tag] += 1
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                page.errors.append(f"<{tag}> has an event handler attribute {name}")
            if name in ("href", "src") and value is not None:
                page.links.append(value)
            if name == "id" and value:
                page.ids[value] += 1
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "content-security-policy":
            page.csp = values.get("content") or ""
        if tag in ("script", "style"):
            self.raw = []
            self.raw_attrs = values
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.page.errors.append(f"end tag of the void element {tag}")
            return
        if not self.stack or self.stack[-1] != tag:
            self.page.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()
        if tag in ("script", "style") and self.raw is not None:
            text = "".join(self.raw)
            if tag == "script":
                self.page.scripts.append((self.raw_attrs, text))
            else:
                self.page.styles.append(text)
            self.raw = None

    def handle_data(self, data: str) -> None:
        if self.raw is not None:
            self.raw.append(data)


def parse_page(path: Path) -> Page:
    """Parse one page (read as strict UTF-8) and check what needs no other file."""
    text = path.read_text(encoding="utf-8")
    page = Page()
    parser = _Parser(page)
    parser.feed(text)
    parser.close()
    if parser.stack:
        page.errors.append(f"unclosed elements: {parser.stack}")
    if not text.startswith("<!DOCTYPE html>"):
        page.errors.append("no <!DOCTYPE html>")
    for tag in ("html", "head", "body", "title", "main"):
        if page.tags[tag] != 1:
            page.errors.append(f"{page.tags[tag]} <{tag}> elements")
    page.errors += [f"id {i!r} used {n} times" for i, n in page.ids.items() if n > 1]
    return page


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def check_page(path: Path) -> Page:
    """Everything a page of the report must satisfy; raises AssertionError listing what it does not."""
    page = parse_page(path)
    errors = list(page.errors)
    for link in page.links:
        if re.match(r"^[a-z]+:|^//", link):
            errors.append(f"external or scheme link {link!r}")
            continue
        target = (path.parent / link.split("#", 1)[0]).resolve()
        if link.split("#", 1)[0] and not target.is_file():
            errors.append(f"broken link {link!r}")
    policy = dict(part.strip().split(" ", 1) for part in page.csp.split(";") if part.strip())
    if policy.get("default-src") != "'none'" or policy.get("img-src") != "data:":
        errors.append(f"weak or missing Content-Security-Policy: {page.csp!r}")
    runnable = [text for attrs, text in page.scripts if attrs.get("type") != "application/json"]
    if sorted(_sha(t) for t in runnable) != sorted(policy.get("script-src", "").split()):
        errors.append("the CSP's script hashes do not match the page's scripts")
    if sorted(_sha(t) for t in page.styles) != sorted(policy.get("style-src", "").split()):
        errors.append("the CSP's style hashes do not match the page's styles")
    if errors:
        raise AssertionError(f"{path}:\n  " + "\n  ".join(errors))
    return page
