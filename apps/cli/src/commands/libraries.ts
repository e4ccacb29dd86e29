// tracemill libraries add|list|remove: capture libraries, directories of captures that users browse in the web app
// and use as job inputs in place. Written to the server's database (the same --data/--database as serve and worker).
import { TracemillError } from "@tracemill/core/errors";
import { Command } from "commander";

interface DatabaseOptions {
  data?: string;
  database?: string;
}

/** Opens the libraries of the server's database, runs `work` on them and closes the database whatever happens. */
async function withLibraries<T>(
  options: DatabaseOptions,
  work: (admin: Awaited<ReturnType<typeof import("@tracemill/server")["openLibraryAdmin"]>>) => Promise<T>,
): Promise<T> {
  // Loaded here, not at the top: the server's dependencies cost every other command start-up time.
  const { DatabaseError, LibraryAdminError, loadConfig, openLibraryAdmin } = await import("@tracemill/server");
  // The server's refusals are its own classes: they end the command with their one line (exit status 1).
  const edge = (error: unknown) =>
    error instanceof DatabaseError || error instanceof LibraryAdminError
      ? new TracemillError("BAD_OPTION", error.message)
      : error;
  const config = loadConfig({ dataDir: options.data, database: options.database });
  const admin = await openLibraryAdmin(config).catch((error: unknown) => {
    throw edge(error);
  });
  try {
    return await work(admin);
  } catch (error) {
    throw edge(error);
  } finally {
    await admin.close();
  }
}

const dataOption = ["--data <dir>", "the server's data directory (env TRACEMILL_DATA_DIR; default ./data)"] as const;
const databaseOption = [
  "--database <url>",
  "postgres:// URL, or SQLite file (env TRACEMILL_DATABASE_URL; default: in the data directory)",
] as const;

export function librariesCommand(): Command {
  // exitOverride before the sub-commands, which inherit it: usage errors then exit 2 like every other command's.
  const command = new Command("libraries")
    .description("manage the capture libraries users browse and use as job inputs in place (run on the server host)")
    .exitOverride();

  command
    .command("add")
    .description("register a directory of captures; every host that runs jobs must see it at the same path")
    .argument("<name>", "the library's name, a plain slug (lower-case letters, digits, '-', '_'), e.g. lab-2024")
    .argument("<dir>", "the directory, read in place and never written to")
    .option(...dataOption)
    .option(...databaseOption)
    .action(async (name: string, dir: string, options: DatabaseOptions) => {
      const added = await withLibraries(options, (admin) => admin.add(name, dir));
      process.stdout.write(`added library ${added.name}: ${added.dir}\n`);
    });

  command
    .command("list")
    .description("list the libraries: name, directory, when added")
    .option(...dataOption)
    .option(...databaseOption)
    .option("--json", "print JSON")
    .action(async (options: DatabaseOptions & { json?: boolean }) => {
      const rows = await withLibraries(options, (admin) => admin.list());
      const libraries = rows.map((row) => ({ name: row.name, dir: row.dir, createdAt: row.created_at }));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(libraries, null, 2)}\n`);
        return;
      }
      for (const library of libraries) process.stdout.write(`${library.name}\t${library.dir}\t${library.createdAt}\n`);
    });

  command
    .command("remove")
    .description("unregister a library (its files stay where they are; queued jobs on them fail)")
    .argument("<name>", "the library's name")
    .option(...dataOption)
    .option(...databaseOption)
    .action(async (name: string, options: DatabaseOptions) => {
      await withLibraries(options, (admin) => admin.remove(name));
      process.stdout.write(`removed library ${name} (its files are untouched)\n`);
    });

  return command;
}
