import { CommanderError, InvalidArgumentError } from 'commander';
import { buildProgram } from './program.ts';

try {
  await buildProgram().exitOverride().parseAsync(process.argv);
} catch (error) {
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 2;
  } else if (error instanceof CommanderError) {
    // Commander printed its message (help, version, usage errors) already.
    process.exitCode = error.exitCode;
  } else {
    // Expected failures (bad input) carry a message meant for people; a stack helps no one here.
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
