// Placeholder; replaced by the domain module.
enum LiveSocialPlaceholder {}
