//! Display scaling: on Windows the process declares itself per-monitor DPI aware before it opens
//! a window or asks where one is, so that window rectangles, captures, the cursor and clicks are
//! all in physical pixels at any scaling (100–250 %). A process that is not aware is shown
//! scaled-down coordinates by Windows while its captures hold physical pixels, and its clicks land
//! off the cards: the failure users of the older auto-player reported most. Elsewhere (X11)
//! coordinates are always physical and there is nothing to do.

/// How aware of display scaling the process is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awareness {
    /// Per-monitor (V2 where the system has it): physical pixels everywhere.
    PerMonitor,
    /// The whole system's scaling only (older Windows).
    System,
    /// Scaled by Windows: coordinates are not physical pixels.
    Unaware,
    /// Not a concern of this window system.
    NotApplicable,
}

/// Declares the process per-monitor DPI aware (Windows), falling back to the best the system
/// offers; returns the awareness the process has afterwards. Safe to call more than once, and
/// after a manifest or a library has set it (that setting then stands).
pub fn become_aware() -> Awareness {
    imp::become_aware()
}

/// The awareness the process has now.
pub fn awareness() -> Awareness {
    imp::awareness()
}

#[cfg(windows)]
mod imp {
    use super::Awareness;
    use windows::Win32::UI::HiDpi::{
        GetAwarenessFromDpiAwarenessContext, GetThreadDpiAwarenessContext,
        SetProcessDpiAwarenessContext, DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE,
        DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2, DPI_AWARENESS_PER_MONITOR_AWARE,
        DPI_AWARENESS_SYSTEM_AWARE,
    };
    use windows::Win32::UI::WindowsAndMessaging::SetProcessDPIAware;

    pub fn become_aware() -> Awareness {
        // SAFETY: process-wide settings with no pointers; each fails harmlessly when the
        // awareness was already set.
        unsafe {
            if awareness() != Awareness::PerMonitor
                && SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2)
                    .is_err()
                && SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE).is_err()
                && awareness() == Awareness::Unaware
            {
                let _ = SetProcessDPIAware();
            }
        }
        awareness()
    }

    pub fn awareness() -> Awareness {
        // SAFETY: reads the calling thread's setting.
        let now = unsafe { GetAwarenessFromDpiAwarenessContext(GetThreadDpiAwarenessContext()) };
        if now == DPI_AWARENESS_PER_MONITOR_AWARE {
            Awareness::PerMonitor
        } else if now == DPI_AWARENESS_SYSTEM_AWARE {
            Awareness::System
        } else {
            Awareness::Unaware
        }
    }
}

#[cfg(not(windows))]
mod imp {
    use super::Awareness;

    pub fn become_aware() -> Awareness {
        Awareness::NotApplicable
    }

    pub fn awareness() -> Awareness {
        Awareness::NotApplicable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On Windows (under Wine in `scripts/windows`) the process ends up per-monitor aware; on
    /// other systems there is nothing to set.
    #[test]
    fn the_process_becomes_per_monitor_aware_where_windows_scales() {
        let got = become_aware();
        assert_eq!(got, awareness());
        if cfg!(windows) {
            assert_eq!(got, Awareness::PerMonitor);
        } else {
            assert_eq!(got, Awareness::NotApplicable);
        }
        // Again: the setting stands.
        assert_eq!(become_aware(), got);
    }
}
