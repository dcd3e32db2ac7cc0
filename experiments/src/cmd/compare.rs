//! `cowrie advantage` and `cowrie compare`: first-mover advantage of one rule set, and the same
//! self-play under several rule sets side by side ([`crate::run::comparison`]).
