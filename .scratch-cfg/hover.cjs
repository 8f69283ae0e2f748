const ts = require('typescript');
const path = require('path');
const file = path.resolve('.scratch-cfg/hover.ts');
const text = require('fs').readFileSync(file, 'utf8');
const host = {
  getScriptFileNames: () => [file], getScriptVersion: () => '1',
  getScriptSnapshot: (f) => { try { return ts.ScriptSnapshot.fromString(require('fs').readFileSync(f, 'utf8')); } catch { return undefined; } },
  getCurrentDirectory: () => process.cwd(), getCompilationSettings: () => ({ module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, target: ts.ScriptTarget.ES2022 }),
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o), fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory, directoryExists: ts.sys.directoryExists, getDirectories: ts.sys.getDirectories,
};
const ls = ts.createLanguageService(host);
const pos = text.indexOf('baseUrl');
const info = ls.getQuickInfoAtPosition(file, pos + 2);
console.log(ts.displayPartsToString(info.displayParts), '|DOC|', ts.displayPartsToString(info.documentation));
