// Kept in step with package.json (a test compares them); importing package.json would put the file
// outside the declaration build's rootDir.
export const VERSION = '0.1.0';
