//! The work that runs off the frame: each task runs on a named thread and
//! reports through a channel (`background`); the app polls them once a frame.
//! A task imports no panel.

pub mod background;
pub mod corpus;
pub mod file_dialog;
pub mod load;
pub mod profiles;
pub mod request_worker;
pub mod save;
pub mod targets;
