// What sudo's refusals mean and what to do about them. `sudo -n` fails without a password rule,
// and on hosts with `Defaults requiretty` it fails for every command run without a terminal, which
// is how the engine runs (ssh -T). REAL-LAB H2, O5.

export interface SudoProblem {
  /** `requiretty`, `password` or `not-allowed`. */
  kind: 'requiretty' | 'password' | 'not-allowed';
  /** One sentence for the error's message. */
  explanation: string;
  /** The next action. */
  action: string;
}

/** Recognises sudo's own refusals in a command's stderr; undefined when sudo did not refuse. */
export function sudoProblem(stderr: string, user = 'the SSH user'): SudoProblem | undefined {
  if (/sudo: sorry, you must have a tty to run sudo|requiretty/i.test(stderr)) {
    return {
      kind: 'requiretty',
      explanation:
        'sudo refused because this host requires a terminal for sudo (Defaults requiretty in sudoers); the engine runs commands without one.',
      action: `Add "Defaults:${user} !requiretty" to sudoers (visudo -f /etc/sudoers.d/onload-bench) on that host; a terminal (ssh -t) would also do, but breaks the engine's streams.`,
    };
  }
  if (
    /sudo: a password is required|sudo: no tty present and no askpass program specified|a terminal is required to read the password/i.test(
      stderr,
    )
  ) {
    return {
      kind: 'password',
      explanation: 'sudo asked for a password (sudo -n never waits for one).',
      action: `Give ${user} a NOPASSWD sudoers rule for the commands the engine runs (systemctl, install, rm, onload_stackdump, cat of /proc), or run the service commands another way (plan: kernelStartCommand/kernelStopCommand, serverStart "foreground").`,
    };
  }
  if (/is not in the sudoers file|is not allowed to (execute|run)|may not run sudo/i.test(stderr)) {
    return {
      kind: 'not-allowed',
      explanation: 'sudo does not allow this command for this user.',
      action: `Allow ${user} to run it with sudo -n (sudoers), or change the plan's commands.`,
    };
  }
  return undefined;
}
