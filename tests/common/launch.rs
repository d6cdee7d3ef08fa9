//! Starting the program under test. Under Wine, `CreateProcess` now and then fails before the
//! child runs at all (ERROR_INTERNAL_ERROR, OS error 1359). Such a start is tried again, three
//! tries in all; a program that did start is never run a second time.

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

/// How many times a start that failed before the program ran is tried.
const TRIES: u32 = 3;

/// `Command` run or started with a failed start tried again.
pub trait Launch {
    /// Runs the program to its end with stdin empty: its status, stdout and stderr (as
    /// `Command::output`).
    fn run(&mut self) -> Output;
    /// Starts the program (as `Command::spawn`).
    fn start(&mut self) -> Child;
}

impl Launch for Command {
    fn run(&mut self) -> Output {
        self.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .start()
            .wait_with_output()
            .expect("the program's output is read")
    }

    fn start(&mut self) -> Child {
        let mut tried = 1;
        loop {
            match self.spawn() {
                Ok(child) => return child,
                Err(e) if tried < TRIES => {
                    eprintln!(
                        "starting {:?} failed ({e}); trying again",
                        self.get_program()
                    );
                    tried += 1;
                    std::thread::sleep(Duration::from_millis(300));
                }
                Err(e) => panic!(
                    "{:?} did not start after {TRIES} tries: {e}",
                    self.get_program()
                ),
            }
        }
    }
}
