# Rewrites with back-references, classes, ranges, hold space and branches.
s/\b([a-z]+) \1\b/\1/g
s/([0-9]+)/<\1>/g
/^Checkpoint/,/^Region/ s/e/E/g
y/aeiou/AEIOU/
/!$/ { h; s/.*/[exclaimed]/; G }
/\?$/ b q
s/ +/ /g
:q
$ a\
-- end --
