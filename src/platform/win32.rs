//! Windows only: the desktop's top-level windows listed by the project itself (EnumWindows), for
//! where xcap lists none (under Wine, whose DWM does not answer the frame-bounds query xcap drops
//! windows on), and a window's client area on the screen in physical pixels (the process is
//! per-monitor DPI aware: see `dpi`).

use windows::core::BOOL;
use windows::Win32::Foundation::{HWND, LPARAM, POINT, RECT};
use windows::Win32::Graphics::Gdi::ClientToScreen;
use windows::Win32::UI::WindowsAndMessaging::{
    EnumWindows, GetClientRect, GetWindowTextLengthW, GetWindowTextW, IsIconic, IsWindow,
    IsWindowVisible,
};

/// The visible top-level windows that have a title, topmost first: (HWND, title).
pub fn top_level_windows() -> Result<Vec<(isize, String)>, String> {
    let mut found: Vec<(isize, String)> = Vec::new();
    unsafe extern "system" fn each(hwnd: HWND, list: LPARAM) -> BOOL {
        // SAFETY: `list` is the vector handed to EnumWindows below, alive for its whole call.
        let list = unsafe { &mut *(list.0 as *mut Vec<(isize, String)>) };
        if unsafe { IsWindowVisible(hwnd) }.as_bool() {
            if let Some(title) = title_of(hwnd) {
                list.push((hwnd.0 as isize, title));
            }
        }
        BOOL(1)
    }
    // SAFETY: the callback only reads window properties and pushes onto `found`.
    unsafe { EnumWindows(Some(each), LPARAM(&mut found as *mut _ as isize)) }
        .map_err(|e| format!("cannot list windows: {e}"))?;
    Ok(found)
}

/// A window's title, if it has one.
fn title_of(hwnd: HWND) -> Option<String> {
    // SAFETY: plain queries of a window handle; the buffer is as long as the length given.
    let len = unsafe { GetWindowTextLengthW(hwnd) };
    if len <= 0 {
        return None;
    }
    let mut buf = vec![0u16; len as usize + 1];
    let got = unsafe { GetWindowTextW(hwnd, &mut buf) };
    (got > 0).then(|| String::from_utf16_lossy(&buf[..got as usize]))
}

/// The window's client area on the screen: (x, y, width, height).
pub fn client_rect(hwnd: isize) -> Result<(i32, i32, u32, u32), String> {
    let hwnd = HWND(hwnd as *mut core::ffi::c_void);
    // SAFETY: queries of a window handle checked to be a window first.
    unsafe {
        if !IsWindow(Some(hwnd)).as_bool() {
            return Err("no such window".into());
        }
        if IsIconic(hwnd).as_bool() {
            return Err("the window is minimised".into());
        }
        let mut rect = RECT::default();
        GetClientRect(hwnd, &mut rect).map_err(|e| e.to_string())?;
        let mut origin = POINT { x: 0, y: 0 };
        if !ClientToScreen(hwnd, &mut origin).as_bool() {
            return Err("cannot place the window on the screen".into());
        }
        Ok((
            origin.x,
            origin.y,
            (rect.right - rect.left).max(0) as u32,
            (rect.bottom - rect.top).max(0) as u32,
        ))
    }
}
