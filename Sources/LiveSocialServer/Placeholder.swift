enum LiveSocialServerPlaceholder {}
