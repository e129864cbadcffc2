/** Saves a file through a temporary link (nothing leaves the browser). */
export function saveFile(file: Blob, name: string): void {
  const href = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

export const saveCsv = (text: string, name: string) =>
  saveFile(new Blob([text], { type: "text/csv;charset=utf-8" }), name);
