// GET /docs/errors and /docs/errors/{slug}: the pages that problem `type` URIs point at.
import { Elysia } from "elysia";
import { ERROR_CATALOG } from "../../../lib/error-catalog";
import { notFound } from "../../../lib/errors";
import { ownValue } from "../../../lib/own-key";

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
const page = (title: string, body: string) =>
  new Response(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="font-family:sans-serif;max-width:48rem;margin:2rem auto">${body}</body></html>`,
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );

export const errorPagesRoute = () =>
  new Elysia()
    .get(
      "/docs/errors",
      () =>
        page(
          "svc errors",
          `<h1>Problem types</h1><ul>${Object.entries(ERROR_CATALOG)
            .map(
              ([slug, e]) =>
                `<li><a href="/docs/errors/${slug}">${slug}</a> — ${e.status} ${escape(e.title)}</li>`,
            )
            .join("")}</ul>`,
        ),
      { detail: { hide: true } },
    )
    .get(
      "/docs/errors/:slug",
      ({ params }) => {
        const entry = ownValue<{ status: number; title: string; description: string }>(
          ERROR_CATALOG,
          params.slug,
        );
        if (!entry) throw notFound("Problem type");
        return page(
          `${params.slug} — svc`,
          `<h1>${escape(entry.title)}</h1><p>HTTP ${entry.status} · <code>${escape(params.slug)}</code></p><p>${escape(entry.description)}</p><p><a href="/docs/errors">All problem types</a></p>`,
        );
      },
      { detail: { hide: true } },
    );
