// One document per loader, each with a sentence (or a function) buried deep inside, and the recall
// that must find it. Shared by the PostgreSQL and embedded-mode file tests.
import { buildDocx, buildPdf } from "./documents";
import { DEEP_FACT, documentWithDeepFact, filler } from "./fixtures";

export type FileCase = {
  loader: string;
  filename: string;
  type: string;
  bytes: Uint8Array;
  /**
   * The recall request body (agent_id added by the test) and the text the top result must contain.
   */
  recall: { query: string; strategy?: string };
  expected: string;
};

const enc = (s: string) => new TextEncoder().encode(s);

export const PDF_FACT =
  "The harbour master of Port Ellen logs ninety-one ferries in each calm October.";
export const DOCX_FACT =
  "The archivist in Tromsø binds seventeen ledgers with blue thread every spring.";
export const CSV_FACT = "Quillmoor observatory recorded a comet with a violet tail";
export const MD_FACT =
  "The glassblower of Murano polishes exactly sixty lanterns before each carnival.";

function pdfCase(): FileCase {
  const sentences = filler(90, 11);
  const pages = [0, 1, 2].map((p) =>
    [0, 1, 2].map((q) => sentences.slice(p * 30 + q * 10, p * 30 + q * 10 + 10).join(" ")),
  );
  pages[2]![1] = `${pages[2]![1]} ${PDF_FACT}`;
  return {
    loader: "pdf",
    filename: "harbour-report.pdf",
    type: "application/pdf",
    bytes: buildPdf(pages),
    recall: { query: "How many ferries does the Port Ellen harbour master log in October?" },
    expected: "ninety-one ferries",
  };
}

function docxCase(): FileCase {
  const paragraphs = documentWithDeepFact(24, 0.8).replace(DEEP_FACT, DOCX_FACT).split("\n\n");
  return {
    loader: "docx",
    filename: "archive-notes.docx",
    type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    bytes: buildDocx(paragraphs),
    recall: { query: "How many ledgers does the Tromsø archivist bind?" },
    expected: "seventeen ledgers",
  };
}

function csvCase(): FileCase {
  const rows = ["id,site,observation"];
  const sentences = filler(200, 5);
  for (let i = 1; i <= 200; i++)
    rows.push(`${i},site-${i % 7},"${i === 163 ? CSV_FACT : sentences[i - 1]}"`);
  return {
    loader: "csv",
    filename: "observations.csv",
    type: "text/csv",
    bytes: enc(rows.join("\n")),
    recall: { query: "Which observatory recorded a comet with a violet tail?" },
    expected: CSV_FACT,
  };
}

function markdownCase(): FileCase {
  const sentences = filler(120, 3);
  const para = (i: number) => sentences.slice(i * 6, i * 6 + 6).join(" ");
  const md = `---\ntitle: Workshop guide\n---\n# Workshop guide\n\n${para(0)}\n\n## Tools\n\n${para(1)}\n\n${para(2)}\n\n## Seasons\n\n${para(3)}\n\n### Winter\n\n${para(4)}\n\n${para(5)}\n\n### Carnival\n\n${para(6)}\n\n${MD_FACT} ${para(7)}\n\n${para(8)}\n\n## Appendix\n\n${para(9)}\n`;
  return {
    loader: "markdown",
    filename: "workshop.md",
    type: "text/markdown",
    bytes: enc(md),
    recall: { query: "the glassblower of Murano polishes sixty lanterns" },
    expected: MD_FACT,
  };
}

function typescriptCase(): FileCase {
  const fns = Array.from(
    { length: 30 },
    (_, i) =>
      `/** Helper number ${i}. */\nexport function helperNumber${i}(value: number): number {\n  const doubled = value * ${i + 2};\n  return doubled - ${i};\n}\n`,
  );
  fns.splice(
    24,
    0,
    `/** Port dues for a vessel, by tonnage band. */\nexport function computeHarborTariff(tonnage: number, berthHours: number): number {\n  const band = tonnage > 5000 ? 3 : tonnage > 1000 ? 2 : 1;\n  return band * 120 + berthHours * 14;\n}\n`,
  );
  const src = `import { readFileSync } from "node:fs";\n\n${fns.join("\n")}\nexport class TariffBook {\n  private rates = new Map<string, number>();\n  rateOf(name: string): number { return this.rates.get(name) ?? 0; }\n}\n`;
  return {
    loader: "code",
    filename: "tariffs.ts",
    type: "application/typescript",
    bytes: enc(src),
    recall: { query: "computeHarborTariff", strategy: "CODE" },
    expected: "export function computeHarborTariff(",
  };
}

export const fileCases = (): FileCase[] => [
  pdfCase(),
  docxCase(),
  csvCase(),
  markdownCase(),
  typescriptCase(),
];

export function formOf(
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; filename: string; type: string },
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new Blob([file.bytes], { type: file.type }), file.filename);
  return form;
}
