import { Anchor, type AnchorProps, Button, type ButtonProps } from "@mantine/core";
import { createLink, type LinkComponent } from "@tanstack/react-router";
import { forwardRef } from "react";

const MantineAnchor = forwardRef<HTMLAnchorElement, AnchorProps & React.ComponentPropsWithoutRef<"a">>((props, ref) => (
  <Anchor ref={ref} {...props} />
));
const MantineButtonAnchor = forwardRef<HTMLAnchorElement, ButtonProps & React.ComponentPropsWithoutRef<"a">>(
  (props, ref) => <Button component="a" ref={ref} {...props} />,
);

const CreatedAnchorLink = createLink(MantineAnchor);
const CreatedButtonLink = createLink(MantineButtonAnchor);

/** A Mantine Anchor that is a typed router Link (to, params, search checked against the routes). */
export const AnchorLink: LinkComponent<typeof MantineAnchor> = (props) => (
  <CreatedAnchorLink preload="intent" {...props} />
);

/** A Mantine Button that is a typed router Link. */
export const ButtonLink: LinkComponent<typeof MantineButtonAnchor> = (props) => (
  <CreatedButtonLink preload="intent" {...props} />
);
